package report

import (
	"strconv"
	"strings"
)

// Source is a user source other than the main one whose device code ran: a
// local header the cell or file includes, or a kept definition (%%cuda_define).
// LineStat, MemInstruction and Hint rows whose CUDAFile is File count its lines.
type Source struct {
	File string `json:"file"` // as rows name it: "x.cuh" (relative to the notebook's or file's directory), "define:NAME"
	Text string `json:"text"`
}

// DefinitionPrefix starts the file name of a kept definition ("define:NAME").
const DefinitionPrefix = "define:"

// SourceLabel names line of file as a user knows it: "x.cuh:12", "definition
// helpers line 3", or "line 12" for the main source (file "").
func SourceLabel(file string, line int) string {
	switch {
	case file == "":
		return "line " + strconv.Itoa(line)
	case strings.HasPrefix(file, DefinitionPrefix):
		return "definition " + strings.TrimPrefix(file, DefinitionPrefix) + " line " + strconv.Itoa(line)
	}
	return file + ":" + strconv.Itoa(line)
}

// SourceIndex is the position of file in rep.Sources, or -1.
func (r *Report) SourceIndex(file string) int {
	for i, s := range r.Sources {
		if s.File == file {
			return i
		}
	}
	return -1
}
