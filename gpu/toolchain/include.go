package toolchain

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// makeTempDir makes the compilation's scratch directory: in $TMPDIR, else in
// /tmp, /var/tmp, /dev/shm or the user's cache directory, so that an unwritable
// TMPDIR does not stop compilation.
func makeTempDir() (string, error) {
	cands := []string{os.TempDir(), "/tmp", "/var/tmp", "/dev/shm"}
	if c, err := os.UserCacheDir(); err == nil {
		cands = append(cands, filepath.Join(c, "kernelscope"))
	}
	var errs []error
	seen := map[string]bool{}
	for _, c := range cands {
		if seen[c] {
			continue
		}
		seen[c] = true
		if strings.HasSuffix(c, "kernelscope") {
			_ = os.MkdirAll(c, 0o700)
		}
		d, err := os.MkdirTemp(c, "kernelscope-cc-")
		if err == nil {
			return d, nil
		}
		errs = append(errs, err)
	}
	return "", fmt.Errorf("toolchain: no writable temporary directory (tried %s): %w", strings.Join(cands, ", "), errors.Join(errs...))
}

// cleanIncludeDir shows paths under the include directory relative to it.
func cleanIncludeDir(s, includeDir string) string {
	if includeDir == "" || includeDir == "/" {
		return s
	}
	return strings.ReplaceAll(s, includeDir+"/", "")
}

// checkIncludes lists every file the source would read (#include, #include_next,
// #embed, the prelude) with the compiler's dependency output, without compiling
// and without showing what the compiler printed, and refuses any file outside
// req.IncludeDir, the temp dir and the compiler's system include directories.
// Sandbox mode only: clang itself has no way to confine includes.
func checkIncludes(ctx context.Context, req Request, exe, dir, srcName string, lookPath func(string) (string, error)) error {
	var args []string
	var roots []string
	if exe == "nvcc" {
		args = []string{"-M", "-MF", "deps.d", "-MT", "ks-deps", "-arch=" + req.Arch}
		if req.IncludeDir != "" {
			args = append(args, "-I", req.IncludeDir)
		}
		args = append(args, srcName)
		roots = []string{"/usr/include", "/usr/local/include", "/usr/lib/gcc", "/usr/lib/nvidia-cuda-toolkit"}
		if p, err := lookPath("nvcc"); err == nil {
			if r, err := filepath.EvalSymlinks(p); err == nil {
				p = r
			}
			top := filepath.Dir(filepath.Dir(p)) // the toolkit: bin/nvcc's parent
			roots = append(roots, filepath.Join(top, "include"), filepath.Join(top, "targets"))
		}
	} else {
		for _, a := range ClangArgs(req.Arch, nil, dir, req.IncludeDir, srcName, "out.ptx") {
			if a == "-S" {
				continue
			}
			args = append(args, a)
		}
		args = args[:len(args)-2] // drop "-o out.ptx"
		args = append(args, "-M", "-MG", "-MF", "deps.d", "-MT", "ks-deps", "-v")
	}
	out, runErr := run(ctx, dir, exe, args...)
	if ctx.Err() != nil {
		return fmt.Errorf("toolchain: %s killed while listing includes: %w", exe, ctx.Err())
	}
	if exe != "nvcc" {
		roots = append(roots, clangSearchDirs(out)...)
	}
	roots = append(roots, dir)
	if req.IncludeDir != "" {
		roots = append(roots, req.IncludeDir)
	}
	deps, derr := os.ReadFile(filepath.Join(dir, "deps.d"))
	if runErr != nil || derr != nil {
		// Show only messages about the user's own source: the output may quote
		// files the sandbox must not reveal.
		text := cleanPaths(out, dir, srcName, req.File)
		var own []Diagnostic
		var all []Diagnostic
		if exe == "nvcc" {
			all = ParseNvccDiagnostics(text, req.File, req.Source)
		} else {
			all = ParseClangDiagnostics(text, req.File)
		}
		for _, d := range all {
			if d.Line > 0 && d.File == "" && d.Severity == "error" {
				own = append(own, d)
			}
		}
		if len(own) == 0 {
			own = []Diagnostic{{Severity: "error", Message: "sandbox mode: could not list the files this source includes, so it is not compiled"}}
		}
		return &CompileError{Diags: own}
	}
	for i, r := range roots {
		if x, err := filepath.EvalSymlinks(r); err == nil {
			roots[i] = x
		}
	}
	var bad []Diagnostic
	var refused, headers []string
	for _, p := range parseDeps(string(deps)) {
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		p = filepath.Clean(p)
		if _, err := os.Lstat(p); err != nil {
			continue // missing (-MG): the compilation reports it as not found
		}
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			real = p
		}
		if underAny(real, roots) {
			if req.IncludeDir != "" && underAny(real, []string{req.IncludeDir}) {
				headers = append(headers, real)
			}
			continue
		}
		refused = append(refused, real)
	}
	for _, r := range refused {
		bad = append(bad, refusedInclude(req, r, headers))
	}
	if len(bad) > 0 {
		return &CompileError{Diags: bad}
	}
	return nil
}

// underAny reports whether path p is one of roots or inside one.
func underAny(p string, roots []string) bool {
	for _, r := range roots {
		if r == "" {
			continue
		}
		if p == r || strings.HasPrefix(p, strings.TrimSuffix(r, "/")+"/") {
			return true
		}
	}
	return false
}

// clangSearchDirs reads the "#include <...> search starts here:" list of clang -v.
func clangSearchDirs(out string) []string {
	var dirs []string
	in := false
	for _, l := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(l, "#include <...> search starts here:"):
			in = true
		case strings.HasPrefix(l, "End of search list."):
			in = false
		case in && strings.HasPrefix(l, " "):
			d := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(l), "(framework directory)"))
			if filepath.IsAbs(d) {
				dirs = append(dirs, filepath.Clean(d))
			}
		}
	}
	return dirs
}

// parseDeps reads a make rule "ks-deps: a.cu b.h ..." as written by -MF.
func parseDeps(s string) []string {
	s = strings.ReplaceAll(s, "\\\r\n", " ")
	s = strings.ReplaceAll(s, "\\\n", " ")
	if i := strings.Index(s, ": "); i >= 0 {
		s = s[i+2:]
	} else if strings.HasSuffix(strings.TrimSpace(s), ":") {
		return nil
	}
	var out []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, cur.String())
			cur.Reset()
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && (s[i+1] == ' ' || s[i+1] == '#' || s[i+1] == '\\'):
			cur.WriteByte(s[i+1])
			i++
		case c == '$' && i+1 < len(s) && s[i+1] == '$':
			cur.WriteByte('$')
			i++
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			flush()
		default:
			cur.WriteByte(c)
		}
	}
	flush()
	return out
}

// lineDirectiveRE is a #line directive: the next line's number and, optionally, its file.
var lineDirectiveRE = regexp.MustCompile(`^\s*#\s*line\s+(\d+)(?:\s+"([^"]*)")?`)

var directiveRE = regexp.MustCompile(`^\s*#\s*(include_next|include|import|embed)\s*([<"])([^>"]*)[>"]`)

// refusedInclude is the error for a file outside the allowed directories, at the
// directive that reads it: in the user's source when it is there, else in a header
// under the include directory (one of headers, the allowed files the source reads).
func refusedInclude(req Request, real string, headers []string) Diagnostic {
	where := "the notebook's or source file's directory"
	if req.IncludeDir != "" {
		where = req.IncludeDir
	}
	msg := func(spelled string) string {
		return fmt.Sprintf("sandbox mode: #%s reads %s, which is outside %s; only files under that directory may be included", spelled, real, where)
	}
	// match finds the directive that reads real: its line and file as #line
	// directives number them (file "" for the source itself), and its spelling.
	match := func(text, base string) (int, string, string) {
		line, file := 0, ""
		for _, l := range strings.Split(text, "\n") {
			line++
			if lm := lineDirectiveRE.FindStringSubmatch(l); lm != nil {
				line, _ = strconv.Atoi(lm[1])
				line--
				if lm[2] != "" {
					file = lm[2]
					if file == req.File {
						file = ""
					}
				}
				continue
			}
			m := directiveRE.FindStringSubmatch(l)
			if m == nil {
				continue
			}
			name := m[3]
			var cands []string
			if filepath.IsAbs(name) {
				cands = []string{name}
			} else {
				cands = []string{filepath.Join(base, name)}
				if req.IncludeDir != "" {
					cands = append(cands, filepath.Join(req.IncludeDir, name))
				}
			}
			for _, c := range cands {
				c = filepath.Clean(c)
				if r, err := filepath.EvalSymlinks(c); err == nil {
					c = r
				}
				if c == real {
					return line, file, m[1] + " " + m[2] + name + map[string]string{"<": ">", `"`: `"`}[m[2]]
				}
			}
		}
		return 0, "", ""
	}
	if n, file, spelled := match(req.Source, req.IncludeDir); n > 0 && file != "" {
		return Diagnostic{Severity: "error", File: file, FileLine: n, Message: fmt.Sprintf("in %s:%d: %s", file, n, msg(spelled))}
	} else if n > 0 {
		return Diagnostic{Line: n, Severity: "error", Message: msg(spelled)}
	}
	// A header under the include directory that includes it.
	for _, h := range headers {
		b, err := os.ReadFile(h)
		if err != nil {
			continue
		}
		if n, _, spelled := match(string(b), filepath.Dir(h)); n > 0 {
			rel, err := filepath.Rel(req.IncludeDir, h)
			if err != nil {
				rel = h
			}
			return Diagnostic{Severity: "error", File: rel, FileLine: n,
				Message: fmt.Sprintf("in %s:%d: %s", rel, n, msg(spelled))}
		}
	}
	return Diagnostic{Severity: "error", Message: fmt.Sprintf("sandbox mode: the source reads %s (through a macro or a header), which is outside %s; only files under that directory may be included", real, where)}
}
