package ptx

import "sort"

// FileLine is a line of a CUDA source file named by its .file index.
type FileLine struct {
	File, Line int
}

// LineInfo is what the source map knows about one PTX line.
type LineInfo struct {
	Func string // the function whose body holds the line
	Loc  Loc    // the .loc in effect
	// Inlined is the name of the inlined function the code came from (from
	// .loc function_name and .debug_str, mangled as the compiler wrote it: see
	// FuncName);
	// "" when the code is not inlined or the name is unknown.
	Inlined string
}

// User returns the location in the code the user wrote: the call site for
// inlined code, else the .loc itself.
func (li LineInfo) User() FileLine {
	if li.Loc.InlinedFile != 0 {
		return FileLine{int(li.Loc.InlinedFile), int(li.Loc.InlinedLine)}
	}
	return FileLine{int(li.Loc.File), int(li.Loc.Line)}
}

// SourceMap maps PTX lines to CUDA locations (from .loc) and back.
type SourceMap struct {
	files  map[int]string
	byPTX  map[int]LineInfo
	byCUDA map[FileLine][]int
}

// NewSourceMap builds the source map of every instruction of m. An
// instruction is mapped from its PTX line to its .loc, and back from both
// its .loc line and, for inlined code, the inlined_at call site. Lines with
// .loc line 0 (compiler-generated code) map to no CUDA line.
func NewSourceMap(m *Module) *SourceMap {
	s := &SourceMap{
		files:  make(map[int]string, len(m.Files)),
		byPTX:  make(map[int]LineInfo),
		byCUDA: make(map[FileLine][]int),
	}
	for _, f := range m.Files {
		s.files[f.Index] = f.Name
	}
	names := make(map[string]string, len(m.DebugStr))
	for _, d := range m.DebugStr {
		names[d.Label] = d.Value
	}
	for _, f := range m.Funcs {
		for _, in := range f.Insts {
			line := int(in.Pos.Line)
			if _, dup := s.byPTX[line]; dup {
				continue
			}
			li := LineInfo{Func: f.Name, Loc: in.Loc, Inlined: names[in.Loc.Func]}
			s.byPTX[line] = li
			if in.Loc.File != 0 && in.Loc.Line > 0 {
				k := FileLine{int(in.Loc.File), int(in.Loc.Line)}
				s.byCUDA[k] = append(s.byCUDA[k], line)
			}
			if in.Loc.InlinedFile != 0 && in.Loc.InlinedLine > 0 {
				k := FileLine{int(in.Loc.InlinedFile), int(in.Loc.InlinedLine)}
				if k != (FileLine{int(in.Loc.File), int(in.Loc.Line)}) {
					s.byCUDA[k] = append(s.byCUDA[k], line)
				}
			}
		}
	}
	for k, v := range s.byCUDA {
		sort.Ints(v)
		s.byCUDA[k] = v
	}
	return s
}

// At returns what is known about the instruction on PTX line ptxLine.
func (s *SourceMap) At(ptxLine int) (LineInfo, bool) {
	li, ok := s.byPTX[ptxLine]
	return li, ok
}

// PTXLines returns the PTX lines, ascending, of the instructions that come
// from line of the file with .file index file (directly or inlined there).
func (s *SourceMap) PTXLines(file, line int) []int {
	return s.byCUDA[FileLine{file, line}]
}

// FileName returns the name of .file index i ("" when undeclared).
func (s *SourceMap) FileName(i int) string { return s.files[i] }

// CUDALines returns every CUDA line that has instructions, sorted by file and line.
func (s *SourceMap) CUDALines() []FileLine {
	out := make([]FileLine, 0, len(s.byCUDA))
	for k := range s.byCUDA {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].File != out[j].File {
			return out[i].File < out[j].File
		}
		return out[i].Line < out[j].Line
	})
	return out
}
