// Package golden reads the golden corpus (testdata/golden: what an H200 and
// NVIDIA's tools said) for the tests of every package, so that each reads
// cases.json the same way.
package golden

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
)

// Case is one launch of cases.json.
type Case struct {
	Name         string         `json:"name"`
	Source       string         `json:"source"` // "src/vector_add.cu"
	Kernel       string         `json:"kernel"`
	Grid         [3]int         `json:"grid"`
	Block        [3]int         `json:"block"`
	SharedBytes  int            `json:"shared_bytes"`
	ToleranceRel float64        `json:"tolerance_rel"`
	Args         []Arg          `json:"args"`
	ActiveBlocks map[string]int `json:"sm_90_active_blocks_per_sm"` // the H200 driver's answer per block size
	Attributes   map[string]any `json:"sm_90_attributes"`
}

// Arg is one kernel argument of a case, in parameter order.
type Arg struct {
	Name   string      `json:"name"`
	Type   string      `json:"type"` // f32 f64 i32 u32 u8, with a trailing * for a buffer
	Count  int         `json:"count"`
	Value  json.Number `json:"value"`  // scalars: the literal as written
	Input  string      `json:"input"`  // buffers: the contents before the launch
	Output string      `json:"output"` // buffers: the H200's contents after it
}

// IsBuffer reports whether the argument is a device buffer.
func (a Arg) IsBuffer() bool { return strings.HasSuffix(a.Type, "*") }

// Elem is the element type of a buffer, or the type of a scalar.
func (a Arg) Elem() string { return strings.TrimSuffix(a.Type, "*") }

// Float is a scalar's value.
func (a Arg) Float() (float64, error) { return strconv.ParseFloat(string(a.Value), 64) }

// Base is the source's name without directory and extension ("vector_add"),
// which names its ptx/, sass/ and res/ files.
func (c Case) Base() string { return strings.TrimSuffix(filepath.Base(c.Source), ".cu") }

// Dir is the absolute path of testdata/golden.
func Dir() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return filepath.Join("testdata", "golden")
	}
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "golden")
}

// Read reads a file of the corpus by its path relative to testdata/golden.
func Read(rel string) ([]byte, error) { return os.ReadFile(filepath.Join(Dir(), rel)) }

// Cases reads cases.json.
func Cases() ([]Case, error) {
	b, err := Read("cases.json")
	if err != nil {
		return nil, err
	}
	var cs []Case
	if err := json.Unmarshal(b, &cs); err != nil {
		return nil, fmt.Errorf("cases.json: %w", err)
	}
	return cs, nil
}
