package engine

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/kernelscope/kernelscope/gpu/analysis"
	"github.com/kernelscope/kernelscope/gpu/report"
	"github.com/kernelscope/kernelscope/gpu/toolchain"
	"github.com/kernelscope/kernelscope/magics"
	"github.com/kernelscope/kernelscope/render"
)

// definition is a cell kept with %%cuda_define: later CUDA cells are compiled
// with it above their own code.
type definition struct {
	name  string
	body  string // the cell with its %%cuda_define line blanked, so its lines are the cell's
	decls []magics.Decl
	// included are the declarations of the local headers it includes, as they
	// were when it was defined.
	included []magics.Decl
}

// definitionFile is the file name a kept definition has in the compiled source
// (#line 1 "define:NAME"), so compiler messages inside it can name it.
func definitionFile(name string) string { return "define:" + name }

// definitionSource is the kept definitions, in order, each after a #line directive
// that numbers its lines as in the cell that defined it; replace (when not nil)
// stands in for the definition of that name, numbered as file, or is appended.
func definitionSource(defs []definition, replace *definition, file string) string {
	var b strings.Builder
	done := false
	for _, d := range defs {
		name := definitionFile(d.name)
		if replace != nil && d.name == replace.name {
			d, name, done = *replace, file, true
		}
		fmt.Fprintf(&b, "#line 1 %s\n%s\n", strconv.Quote(name), d.body)
	}
	if replace != nil && !done {
		fmt.Fprintf(&b, "#line 1 %s\n%s\n", strconv.Quote(file), replace.body)
	}
	return b.String()
}

// definitionTexts are the kept definitions' texts by the file name their #line
// directive gives them, for the Source view's lines of definitions that ran.
func definitionTexts(defs []definition) map[string]string {
	if len(defs) == 0 {
		return nil
	}
	m := make(map[string]string, len(defs))
	for _, d := range defs {
		m[definitionFile(d.name)] = d.body
	}
	return m
}

// withDefinitions is a cell's source with the kept definitions above it, its own
// lines numbered from 1 as file (a #line directive), and the definitions it uses.
func withDefinitions(defs []definition, src, file string) (string, []string, []string) {
	if len(defs) == 0 {
		return src, nil, nil
	}
	used, unused := usedDefinitions(defs, src)
	return definitionSource(defs, nil, "") + "#line 1 " + strconv.Quote(file) + "\n" + src, used, unused
}

var identWordRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

// usedDefinitions splits the kept definitions into those the source refers to
// (by a name one of them declares, directly or through another kept definition)
// and the others.
func usedDefinitions(defs []definition, src string) (used, unused []string) {
	words := map[string]bool{}
	for _, w := range identWordRE.FindAllString(src, -1) {
		words[w] = true
	}
	isUsed := make([]bool, len(defs))
	for changed := true; changed; {
		changed = false
		for i := len(defs) - 1; i >= 0; i-- {
			if isUsed[i] {
				continue
			}
			for _, d := range append(defs[i].decls, defs[i].included...) {
				if words[d.Name] {
					isUsed[i], changed = true, true
					for _, w := range identWordRE.FindAllString(defs[i].body, -1) {
						words[w] = true
					}
					break
				}
			}
		}
	}
	for i, d := range defs {
		if isUsed[i] {
			used = append(used, d.name)
		} else {
			unused = append(unused, d.name)
		}
	}
	return used, unused
}

// definitionsNote is the report's note on the kept definitions a cell was compiled with.
func definitionsNote(used, unused []string) string {
	switch {
	case len(used) == 0:
		return "compiled below the kept definitions " + strings.Join(unused, ", ") + " (%%cuda_define), none of which this cell refers to"
	case len(unused) == 0:
		return "uses the kept definitions " + strings.Join(used, ", ") + " (%%cuda_define)"
	}
	return "uses the kept definitions " + strings.Join(used, ", ") + " (%%cuda_define); also compiled above it, not referred to: " + strings.Join(unused, ", ")
}

var defDiagRE = regexp.MustCompile(`(?s)^cell(?: line \d+(?::\d+)?)?: (error|fatal error|warning|note): in define:([A-Za-z0-9_]+):(\d+)(?::(\d+))?: (.*)$`)

// definitionDiag rewrites a compiler message about a kept definition, as the
// pipeline words one in another file, to name the definition and its line.
func definitionDiag(msg string) string {
	m := defDiagRE.FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	pos := m[3]
	if m[4] != "" {
		pos += ":" + m[4]
	}
	return fmt.Sprintf("in definition %s line %s: %s: %s", m[2], pos, m[1], m[5])
}

var defPosRE = regexp.MustCompile(`\bdefine:([A-Za-z0-9_]+):(\d+)`)

// definitionMessage names a kept definition in a message as the user knows it:
// a compiler message about one (definitionDiag), and a position such as the
// pipeline's "inlined from define:NAME:3", as "definition NAME line 3".
func definitionMessage(msg string) string {
	return defPosRE.ReplaceAllString(definitionDiag(msg), "definition $1 line $2")
}

// renameDefinitions rewrites a failure's and a report's messages about kept definitions.
func renameDefinitions(rep *report.Report, err error) {
	var f *analysis.Failure
	if errors.As(err, &f) {
		f.Err.Message = definitionMessage(f.Err.Message)
		for i := range f.Diags {
			f.Diags[i].Message = definitionMessage(f.Diags[i].Message)
		}
	}
	if rep == nil {
		return
	}
	for i := range rep.Errors {
		rep.Errors[i].Message = definitionMessage(rep.Errors[i].Message)
	}
	for i := range rep.Sanitizer {
		rep.Sanitizer[i].Message = definitionMessage(rep.Sanitizer[i].Message)
	}
}

// define compiles a %%cuda_define cell below the kept definitions before it and,
// when it compiles, keeps it (replacing a definition of the same name in place).
func (e *Engine) define(ctx context.Context, spec *magics.Spec, pub publisher) error {
	d := definition{name: spec.Define, body: spec.Source, decls: magics.ScanDecls(spec.Source, "definition "+spec.Define)}
	e.mu.Lock()
	defs := append([]definition(nil), e.defs...)
	sandbox := e.state.Sandbox()
	e.mu.Unlock()
	// The names of the local headers it includes count as its own (a cell that
	// uses one of them uses the definition); completion reads the headers afresh.
	d.included = e.headerDecls(d.body, e.baseDir, sandbox, map[string]bool{}, 0)
	src := definitionSource(defs, &d, "cell.cu")
	if sandbox && len(src) > analysis.SandboxMaxSourceBytes {
		return &cellError{name: "MagicError", msg: fmt.Sprintf("sandbox mode: the kept definitions with this one are %d bytes, more than the %d (1 MiB) allowed", len(src), analysis.SandboxMaxSourceBytes)}
	}
	_, err := toolchain.Compile(ctx, toolchain.Request{
		Source: src, File: "cell.cu", Arch: spec.Arch, Compiler: spec.Compiler, Flags: spec.Flags,
		Timeout: 60 * time.Second, IncludeDir: e.baseDir, Sandbox: sandbox,
	})
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return definitionCompileError(spec.Define, err)
	}
	e.mu.Lock()
	replaced := false
	for i := range e.defs {
		if e.defs[i].name == d.name {
			e.defs[i], replaced = d, true
		}
	}
	if !replaced {
		e.defs = append(e.defs, d)
	}
	e.mu.Unlock()
	verb := "kept"
	if replaced {
		verb = "replaced"
	}
	lines := strings.Count(strings.TrimRight(d.body, "\n"), "\n") // the lines after %%cuda_define
	inc := ""
	if len(d.included) > 0 {
		inc = "; from the headers it includes: " + describeDecls(d.included)
	}
	text := fmt.Sprintf("%s definition %s (%s, compiled for %s): %s%s. Later CUDA cells are compiled with it above their code; %%defines lists the kept definitions, %%undefine %s drops it.",
		verb, d.name, plural(lines, "line"), spec.Arch, describeDecls(d.decls), inc, d.name)
	return pub.display(map[string]any{render.MIMEText: text}, "")
}

// definitionCompileError words the compile errors of a definition cell at its lines.
func definitionCompileError(name string, err error) error {
	var ce *toolchain.CompileError
	if !errors.As(err, &ce) {
		return &cellError{name: "CompileError", msg: fmt.Sprintf("%%%%cuda_define %s: %v", name, err)}
	}
	var msgs []string
	for _, d := range ce.Diags {
		if d.Severity != "error" && d.Severity != "fatal error" {
			continue
		}
		switch {
		case strings.HasPrefix(d.File, "define:"):
			msgs = append(msgs, definitionDiag("cell: error: "+d.Message))
		case d.Line > 0 && d.Col > 0:
			msgs = append(msgs, fmt.Sprintf("cell line %d:%d: error: %s", d.Line, d.Col, d.Message))
		case d.Line > 0:
			msgs = append(msgs, fmt.Sprintf("cell line %d: error: %s", d.Line, d.Message))
		default:
			msgs = append(msgs, "cell: error: "+d.Message)
		}
	}
	if len(msgs) == 0 {
		msgs = []string{err.Error()}
	}
	return &cellError{name: "CompileError", msg: strings.Join(msgs, "\n")}
}

// describeDecls lists declared names by kind: "functions sq, cube; struct Pair; macro N".
func describeDecls(ds []magics.Decl) string {
	if len(ds) == 0 {
		return "no named declarations found"
	}
	byKind := map[string][]string{}
	var kinds []string
	for _, d := range ds {
		if byKind[d.Kind] == nil {
			kinds = append(kinds, d.Kind)
		}
		byKind[d.Kind] = append(byKind[d.Kind], d.Name)
	}
	var parts []string
	for _, k := range kinds {
		n := byKind[k]
		if len(n) > 1 {
			k += "s"
			if strings.HasSuffix(k, "ss") {
				k += "es"
			}
		}
		parts = append(parts, k+" "+strings.Join(n, ", "))
	}
	return strings.Join(parts, "; ")
}

// listDefines answers %defines.
func (e *Engine) listDefines(pub publisher) error {
	e.mu.Lock()
	defs := append([]definition(nil), e.defs...)
	e.mu.Unlock()
	if len(defs) == 0 {
		return pub.display(map[string]any{render.MIMEText: "no kept definitions (a cell starting with %%cuda_define NAME keeps one)"}, "")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s, compiled in this order above every CUDA cell:\n", plural(len(defs), "kept definition"))
	for _, d := range defs {
		fmt.Fprintf(&b, "  %s (%s): %s\n", d.name, plural(strings.Count(strings.TrimRight(d.body, "\n"), "\n"), "line"), describeDecls(d.decls))
	}
	return pub.display(map[string]any{render.MIMEText: strings.TrimRight(b.String(), "\n")}, "")
}

// undefine answers %undefine NAME...: every name must be kept; none is dropped otherwise.
func (e *Engine) undefine(names []string, pub publisher) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	have := map[string]bool{}
	var all []string
	for _, d := range e.defs {
		have[d.name] = true
		all = append(all, d.name)
	}
	for _, n := range names {
		if !have[n] {
			list := "there are none"
			if len(all) > 0 {
				list = "kept: " + strings.Join(all, ", ")
			}
			return &cellError{name: "MagicError", msg: fmt.Sprintf("%%undefine: no kept definition named %q (%s)", n, list)}
		}
	}
	drop := map[string]bool{}
	for _, n := range names {
		drop[n] = true
	}
	kept := e.defs[:0:0]
	for _, d := range e.defs {
		if !drop[d.name] {
			kept = append(kept, d)
		}
	}
	e.defs = kept
	return pub.display(map[string]any{render.MIMEText: fmt.Sprintf("dropped %s; %s remain", strings.Join(names, ", "), plural(len(kept), "kept definition"))}, "")
}

// env is what completion and inspection know beyond the cell: the kept
// definitions' names and declarations and those of the local headers the cell
// (or a kept definition) includes.
func (e *Engine) env(code string) magics.Env {
	e.mu.Lock()
	defs := append([]definition(nil), e.defs...)
	sandbox := e.state.Sandbox()
	e.mu.Unlock()
	var env magics.Env
	srcs := []string{code}
	for _, d := range defs {
		env.Defines = append(env.Defines, d.name)
		env.Decls = append(env.Decls, d.decls...)
		srcs = append(srcs, d.body)
	}
	seen := map[string]bool{}
	for _, s := range srcs {
		env.Decls = append(env.Decls, e.headerDecls(s, e.baseDir, sandbox, seen, 0)...)
	}
	return env
}

var includeRE = regexp.MustCompile(`(?m)^[ \t]*#[ \t]*include[ \t]*"([^"\n]+)"`)

// maxScanHeader is the largest header scanned for completion.
const maxScanHeader = 1 << 20

// headerDecls scans the local headers src includes (#include "x.cuh", relative to
// dir), and theirs, up to three levels; in sandbox mode only files under the
// notebook's directory. Unreadable headers are skipped: completion never fails.
func (e *Engine) headerDecls(src, dir string, sandbox bool, seen map[string]bool, depth int) []magics.Decl {
	if depth > 3 {
		return nil
	}
	var out []magics.Decl
	for _, m := range includeRE.FindAllStringSubmatch(src, -1) {
		p := m[1]
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		real, err := filepath.EvalSymlinks(p)
		if err != nil || seen[real] {
			continue
		}
		seen[real] = true
		if sandbox && !under(real, e.baseDir) {
			continue
		}
		st, err := os.Stat(real)
		if err != nil || !st.Mode().IsRegular() || st.Size() > maxScanHeader {
			continue
		}
		data, err := os.ReadFile(real)
		if err != nil {
			continue
		}
		where := m[1]
		out = append(out, magics.ScanDecls(string(data), where)...)
		out = append(out, e.headerDecls(string(data), filepath.Dir(real), sandbox, seen, depth+1)...)
	}
	return out
}

// under reports whether path (symbolic links resolved) is dir or inside it.
func under(path, dir string) bool {
	d, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	if r, err := filepath.EvalSymlinks(d); err == nil {
		d = r
	}
	rel, err := filepath.Rel(d, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../") && !filepath.IsAbs(rel)
}

// writeFile answers a %%writefile cell: it writes (or appends) the cell's body to
// the named file, relative to the notebook's directory. In sandbox mode the file
// must be under that directory once symbolic links are resolved.
func (e *Engine) writeFile(wf *magics.WriteFile, pub publisher) error {
	fail := func(format string, a ...any) error {
		return &cellError{name: "WriteFileError", msg: fmt.Sprintf("cell line %d: %%%%writefile %s: ", wf.Line, wf.Name) + fmt.Sprintf(format, a...)}
	}
	e.mu.Lock()
	sandbox := e.state.Sandbox()
	e.mu.Unlock()
	base := e.baseDir
	if base == "" {
		base = "."
	}
	base, err := filepath.Abs(base)
	if err != nil {
		return fail("the notebook's directory: %v", err)
	}
	path := wf.Name
	if !filepath.IsAbs(path) {
		path = filepath.Join(base, path)
	}
	path = filepath.Clean(path)
	if strings.HasSuffix(wf.Name, "/") {
		return fail("the name ends with / (a directory); give a file name")
	}
	target := path
	if sandbox {
		realBase, err := filepath.EvalSymlinks(base)
		if err != nil {
			return fail("the notebook's directory: %v", err)
		}
		parent, err := filepath.EvalSymlinks(filepath.Dir(path))
		if err != nil {
			return fail("directory %s does not exist", filepath.Dir(wf.Name))
		}
		target = filepath.Join(parent, filepath.Base(path))
		if fi, err := os.Lstat(target); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			r, err := filepath.EvalSymlinks(target)
			if err != nil {
				return fail("refused in sandbox mode: %s is a symbolic link that does not resolve", wf.Name)
			}
			target = r
		}
		if !under(target, realBase) {
			return fail("refused in sandbox mode (the kernel was started with --sandbox): %s is outside the notebook's directory", wf.Name)
		}
	}
	if fi, err := os.Stat(target); err == nil && fi.IsDir() {
		return fail("%s is a directory; give a file name", wf.Name)
	} else if err == nil && !fi.Mode().IsRegular() {
		return fail("%s is not a regular file (a device, FIFO or socket)", wf.Name)
	}
	existed := false
	if _, err := os.Stat(target); err == nil {
		existed = true
	}
	flags := os.O_WRONLY | os.O_CREATE
	if wf.Append {
		flags |= os.O_APPEND
	} else {
		flags |= os.O_TRUNC
	}
	if sandbox {
		flags |= syscall.O_NOFOLLOW // the link checked above cannot be swapped in at the last component
	}
	f, err := os.OpenFile(target, flags, 0o644)
	if err != nil {
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return fail("directory %s does not exist", filepath.Dir(wf.Name))
		case errors.Is(err, fs.ErrPermission):
			return fail("not allowed to write there (permission denied)")
		case errors.Is(err, syscall.ELOOP):
			return fail("refused in sandbox mode: %s became a symbolic link", wf.Name)
		case errors.Is(err, syscall.ENOTDIR):
			return fail("%s is not a directory, so nothing can be written under it", filepath.Dir(wf.Name))
		case errors.Is(err, syscall.EROFS):
			return fail("not allowed to write there (a read-only file system)")
		}
		return fail("%v", err)
	}
	n, err := f.WriteString(wf.Body)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fail("writing: %v", err)
	}
	shown := wf.Name
	if rel, err := filepath.Rel(base, path); err == nil && !strings.HasPrefix(rel, "..") {
		shown = rel
	}
	var text string
	switch {
	case wf.Append && existed:
		st, _ := os.Stat(target)
		size := int64(n)
		if st != nil {
			size = st.Size()
		}
		text = fmt.Sprintf("Appended %d bytes to %s (%d bytes in all)", n, shown, size)
	case existed:
		text = fmt.Sprintf("Overwrote %s: %d bytes", shown, n)
	default:
		text = fmt.Sprintf("Wrote %s: %d bytes", shown, n)
	}
	return pub.display(map[string]any{render.MIMEText: text}, "")
}

// plural writes "1 line", "2 lines".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}
