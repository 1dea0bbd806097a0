package analysis

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/kernelscope/kernelscope/gpu/ptx"
	"github.com/kernelscope/kernelscope/gpu/report"
	"github.com/kernelscope/kernelscope/gpu/sim"
	"github.com/kernelscope/kernelscope/gpu/toolchain"
)

// Device code from a local header (#include "x.cuh") or a kept definition
// (%%cuda_define, compiled under `#line 1 "define:NAME"`) has .loc entries naming
// that file, not the user's. userSources keeps the text of those files and maps
// such a .loc to (file, line), so their executions, memory counters and hints have
// a line in the report. Only the user's own files count: files under the request's
// directory (BaseDir) or, outside sandbox mode, under a -I directory of its flags,
// and the definitions whose text the request carries (Request.ExtraSources).
// Compiler resource headers, the prelude in the compilation's temporary directory
// and system headers never do.

// Limits on the text kept: one file (as much as a report quotes of the cell), and all of them together.
const (
	maxUserSourceBytes  = 256 << 10
	maxUserSourcesBytes = 1 << 20
)

// systemRoots hold headers that are never the user's, whatever BaseDir is.
var systemRoots = []string{"/usr/include", "/usr/local/include", "/usr/lib", "/usr/local/lib", "/usr/local/cuda", "/usr/share"}

// userSource is one candidate file: its report name, text, and why it has none.
type userSource struct {
	src  report.Source
	skip string // non-empty: the text is not kept (too large, unreadable), and why
	hit  bool   // an instruction's .loc names it
}

// userSources maps .loc entries to lines of the main source or of another user source.
type userSources struct {
	mod   *ptx.Module
	main  string      // userFile(req): "" accepts any file (PTX input)
	byIdx map[int]int // .file index -> index in list
	list  []*userSource
	locs  map[int]ptx.Loc // PTX line -> .loc, made when first needed
}

// newUserSources finds, among the module's .file entries, the user's other sources.
func newUserSources(req Request, mod *ptx.Module) *userSources {
	u := &userSources{mod: mod, main: userFile(req), byIdx: map[int]int{}}
	if u.main == "" || mod == nil {
		return u
	}
	roots := sourceRoots(req)
	byName := map[string]int{}
	names := map[string]bool{}
	total := 0
	for _, f := range mod.Files {
		if fileIs(mod, f.Index, u.main) {
			continue
		}
		var key, name, text, skip string
		if strings.HasPrefix(f.Name, report.DefinitionPrefix) {
			t, ok := req.ExtraSources[f.Name]
			if !ok {
				continue
			}
			key, name, text = f.Name, f.Name, t
		} else {
			real, root, ok := userHeaderPath(f.Name, roots)
			if !ok {
				continue
			}
			key, name = real, displayName(real, req.BaseDir, root)
			if i, seen := byName[key]; seen {
				u.byIdx[f.Index] = i
				continue
			}
			if names[name] || strings.HasPrefix(name, report.DefinitionPrefix) {
				// Two headers shown alike (x.cuh under two roots), or one that would
				// read as a kept definition: name it by its path.
				name = real
			}
			text, skip = readUserSource(real, root, req.Sandbox)
		}
		if i, seen := byName[key]; seen {
			u.byIdx[f.Index] = i
			continue
		}
		if skip == "" && len(text) > maxUserSourceBytes {
			text, skip = "", fmt.Sprintf("larger than %d KiB", maxUserSourceBytes>>10)
		}
		if skip == "" && total+len(text) > maxUserSourcesBytes {
			text, skip = "", fmt.Sprintf("the sources shown would exceed %d MiB", maxUserSourcesBytes>>20)
		}
		total += len(text)
		names[name] = true
		byName[key] = len(u.list)
		u.byIdx[f.Index] = len(u.list)
		u.list = append(u.list, &userSource{src: report.Source{File: name, Text: text}, skip: skip})
	}
	return u
}

// sourceRoots are the directories whose files are the user's: BaseDir and,
// outside sandbox mode, the -I directories of the flags (relative to BaseDir).
func sourceRoots(req Request) []string {
	var roots []string
	add := func(d string) {
		if d == "" {
			return
		}
		if !filepath.IsAbs(d) {
			base := req.BaseDir
			if base == "" {
				base = "."
			}
			d = filepath.Join(base, d)
		}
		abs, err := filepath.Abs(d)
		if err != nil {
			return
		}
		if r, err := filepath.EvalSymlinks(abs); err == nil {
			abs = r
		}
		roots = append(roots, abs)
	}
	if req.BaseDir != "" {
		add(req.BaseDir)
	}
	if !req.Sandbox {
		for i, f := range req.Flags {
			switch {
			case f == "-I" && i+1 < len(req.Flags):
				add(req.Flags[i+1])
			case strings.HasPrefix(f, "-I") && len(f) > 2:
				add(f[2:])
			}
		}
	}
	return roots
}

// userHeaderPath resolves a .file name to a real path under one of roots; ok is
// false for relative names (files in the compilation's temporary directory), the
// prelude, system and compiler headers, and anything outside the roots.
func userHeaderPath(name string, roots []string) (real, root string, ok bool) {
	if !filepath.IsAbs(name) || filepath.Base(name) == toolchain.PreludeName {
		return "", "", false
	}
	p := filepath.Clean(name)
	if r, err := filepath.EvalSymlinks(p); err == nil {
		p = r
	} else {
		return "", "", false
	}
	for _, r := range roots {
		if !pathUnder(p, r) {
			continue
		}
		for _, s := range systemRoots {
			if pathUnder(p, s) && !pathUnder(r, s) {
				return "", "", false
			}
		}
		rel, _ := filepath.Rel(r, p)
		for _, part := range strings.Split(rel, string(filepath.Separator)) {
			if strings.HasPrefix(part, "kernelscope-cc-") { // the compilation's scratch directory under the root
				return "", "", false
			}
		}
		return p, r, true
	}
	return "", "", false
}

// pathUnder reports whether path is dir or inside it (both cleaned, absolute).
func pathUnder(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../") && !filepath.IsAbs(rel)
}

// displayName is how rows name a header: relative to BaseDir when under it,
// else relative to the -I root it was found under, else its path.
func displayName(real, baseDir, root string) string {
	if baseDir != "" {
		if b, err := filepath.Abs(baseDir); err == nil {
			if r, err := filepath.EvalSymlinks(b); err == nil {
				b = r
			}
			if pathUnder(real, b) {
				if rel, err := filepath.Rel(b, real); err == nil {
					return filepath.ToSlash(rel)
				}
			}
		}
	}
	if rel, err := filepath.Rel(root, real); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return real
}

// readUserSource reads a header's text (a regular file, at most maxUserSourceBytes).
// In sandbox mode the last component must not be a link and the file opened must
// still be under root, so a link swapped in after the check reads nothing.
func readUserSource(path, root string, sandbox bool) (text, skip string) {
	flags := os.O_RDONLY
	if sandbox {
		flags |= syscall.O_NOFOLLOW
	}
	f, err := os.OpenFile(path, flags, 0)
	if err != nil {
		return "", "unreadable: " + err.Error()
	}
	defer f.Close()
	if sandbox {
		opened, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(int(f.Fd())))
		if err != nil || !pathUnder(opened, root) {
			return "", "not confirmed to be under the notebook's directory"
		}
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return "", "not a regular file"
	}
	if st.Size() > maxUserSourceBytes {
		return "", fmt.Sprintf("larger than %d KiB", maxUserSourceBytes>>10)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxUserSourceBytes+1))
	if err != nil {
		return "", "unreadable: " + err.Error()
	}
	if len(b) > maxUserSourceBytes {
		return "", fmt.Sprintf("larger than %d KiB", maxUserSourceBytes>>10)
	}
	return string(b), ""
}

// locate maps an instruction's .loc to a line of the main source (file "") or of
// another user source (its report name); line 0 when it is in neither. The main
// source wins, as cudaLine decides it (the call site of inlined code included).
func (u *userSources) locate(loc ptx.Loc) (file string, line int) {
	if l := cudaLine(u.mod, loc, u.main); l > 0 {
		return "", l
	}
	if loc.File == 0 {
		return "", 0
	}
	if i, ok := u.byIdx[int(loc.File)]; ok && loc.Line > 0 {
		s := u.list[i]
		s.hit = true
		if s.skip == "" {
			return s.src.File, int(loc.Line)
		}
	}
	if i, ok := u.byIdx[int(loc.InlinedFile)]; ok && loc.InlinedFile != 0 && loc.InlinedLine > 0 {
		s := u.list[i]
		s.hit = true
		if s.skip == "" {
			return s.src.File, int(loc.InlinedLine)
		}
	}
	return "", 0
}

// finish sets rep.Sources to the sources with an executed line, clears the
// attribution of rows naming any other, and notes the sources the kernel has
// instructions from but whose text is not kept.
func (u *userSources) finish(rep *report.Report) {
	ran := map[string]bool{}
	for _, l := range rep.Lines {
		if l.CUDAFile != "" && l.WarpExecs > 0 {
			ran[l.CUDAFile] = true
		}
	}
	for i := range rep.Lines {
		if l := &rep.Lines[i]; l.CUDAFile != "" && !ran[l.CUDAFile] {
			l.CUDAFile, l.CUDALine = "", 0
		}
	}
	if rep.Memory != nil {
		for i := range rep.Memory.Instructions {
			if m := &rep.Memory.Instructions[i]; m.CUDAFile != "" && !ran[m.CUDAFile] {
				m.CUDAFile, m.CUDALine = "", 0
			}
		}
	}
	rep.Sources = nil
	for _, s := range u.list {
		switch {
		case ran[s.src.File]:
			rep.Sources = append(rep.Sources, s.src)
		case s.hit && s.skip != "":
			rep.Notes = append(rep.Notes, fmt.Sprintf("%s: the kernel has device code from it, but the Source view does not show it (%s)", s.src.File, s.skip))
		}
	}
}

// shownLineAt is the line of a shown other source (rep.Sources) that PTX line
// ptxLine's instruction comes from; file "" when none.
func (u *userSources) shownLineAt(rep *report.Report, ptxLine int) (file string, line int) {
	if ptxLine <= 0 || len(rep.Sources) == 0 {
		return "", 0
	}
	if u.locs == nil {
		u.locs = map[int]ptx.Loc{}
		for _, f := range u.mod.Funcs {
			for _, in := range f.Insts {
				u.locs[int(in.Pos.Line)] = in.Loc
			}
		}
	}
	loc, ok := u.locs[ptxLine]
	if !ok {
		return "", 0
	}
	file, line = u.locate(loc)
	if file == "" || rep.SourceIndex(file) < 0 {
		return "", 0
	}
	return file, line
}

// pinHints gives each hint on a PTX line of another shown source that file and
// line (the hint rules see only rows, and know no files).
func (u *userSources) pinHints(rep *report.Report) {
	for i := range rep.Hints {
		h := &rep.Hints[i]
		if h.CUDAFile != "" {
			continue
		}
		if file, line := u.shownLineAt(rep, h.PTXLine); file != "" && (h.CUDALine == 0 || h.CUDALine == line) {
			h.CUDAFile, h.CUDALine = file, line
		}
	}
}

// pinFindings names, in each finding on a PTX line of another shown source,
// that file and line instead of the nearest line of the main source, in its
// fields and at the start of its message (as findingMessage wrote it).
func (u *userSources) pinFindings(rep *report.Report, cell bool) {
	for i := range rep.Sanitizer {
		f := &rep.Sanitizer[i]
		if f.CUDAFile != "" || f.OtherCUDAFile != "" {
			continue
		}
		old := lineRef(f.CUDALine, f.PTXLine, cell)
		if f.OtherPTXLine > 0 {
			old += " and " + lineRef(f.OtherCUDALine, f.OtherPTXLine, cell)
		}
		changed := false
		if file, line := u.shownLineAt(rep, f.PTXLine); file != "" {
			f.CUDAFile, f.CUDALine, changed = file, line, true
		}
		if file, line := u.shownLineAt(rep, f.OtherPTXLine); file != "" {
			f.OtherCUDAFile, f.OtherCUDALine, changed = file, line, true
		}
		if !changed || !strings.HasPrefix(f.Message, old) {
			continue
		}
		ref := func(file string, line, ptxLine int) string {
			if file == "" {
				return lineRef(line, ptxLine, cell)
			}
			return fmt.Sprintf("%s (PTX line %d)", report.SourceLabel(file, line), ptxLine)
		}
		now := ref(f.CUDAFile, f.CUDALine, f.PTXLine)
		if f.OtherPTXLine > 0 {
			now += " and " + ref(f.OtherCUDAFile, f.OtherCUDALine, f.OtherPTXLine)
		}
		f.Message = now + f.Message[len(old):]
	}
}

// pinTrace gives the widget's steps in another shown source's code that file and line.
func (u *userSources) pinTrace(rep *report.Report, res *sim.Result) {
	if rep.Trace == nil || len(rep.Sources) == 0 {
		return
	}
	for i := range rep.Trace.Steps {
		st := &rep.Trace.Steps[i]
		if st.CUDALine != 0 || st.PC < 0 || st.PC >= len(res.Insts) {
			continue
		}
		if file, line := u.locate(res.Insts[st.PC].Loc); file != "" && rep.SourceIndex(file) >= 0 {
			st.CUDAFile, st.CUDALine = file, line
		}
	}
}
