// Package fakeengine is a kernel.Engine for testing the Jupyter side without CUDA.
//
// Cells: "sleep N" waits N seconds or until interrupted; a cell with a line containing
// FAIL returns an error naming that line; "display" publishes text/html; "progress"
// publishes a display and updates it; "alloc N" allocates and drops N MB; "panic" panics; "stderr" writes to stderr;
// anything else is echoed on stdout. IsComplete panics on "panic".
package fakeengine

import (
	"context"
	"fmt"
	"html"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/kernelscope/kernelscope/kernel"
)

// Engine is the fake engine; the zero value is ready.
type Engine struct{}

// CellError is the error of a FAIL cell.
type CellError struct {
	// Line is the 1-based line of the cell holding FAIL.
	Line int
	// Text is that line.
	Text string
}

// Error names the line.
func (e *CellError) Error() string {
	return fmt.Sprintf("cell line %d: %s: deliberate failure", e.Line, e.Text)
}

// ErrorName returns "CellError".
func (e *CellError) ErrorName() string { return "CellError" }

// Traceback returns the message and the offending line.
func (e *CellError) Traceback() []string {
	return []string{e.Error(), fmt.Sprintf("  %d | %s", e.Line, e.Text)}
}

// docs are the words Complete and Inspect know.
func docs() map[string]string {
	return map[string]string{
		"__syncthreads":    "void __syncthreads(): waits until all threads of the block reach it.",
		"__shfl_sync":      "T __shfl_sync(unsigned mask, T var, int srcLane, int width=warpSize): reads var from srcLane.",
		"__shfl_down_sync": "T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width=warpSize).",
		"threadIdx":        "uint3 threadIdx: the thread's index within its block.",
		"blockIdx":         "uint3 blockIdx: the block's index within the grid.",
		"blockDim":         "dim3 blockDim: the block's dimensions.",
		"%arch":            "%arch sm_XX: the architecture to simulate.",
		"%grid":            "%grid X[,Y,Z]: the grid dimensions.",
		"%block":           "%block X[,Y,Z]: the block dimensions.",
	}
}

// Execute runs one fake cell.
func (Engine) Execute(ctx context.Context, req kernel.ExecuteRequest, out kernel.Publisher) error {
	code := strings.TrimSpace(req.Code)
	lines := strings.Split(req.Code, "\n")
	for i, l := range lines {
		if strings.Contains(l, "FAIL") {
			return &CellError{Line: i + 1, Text: strings.TrimSpace(l)}
		}
	}
	switch {
	case strings.HasPrefix(code, "sleep "):
		secs, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimPrefix(code, "sleep ")), 64)
		if err != nil {
			return fmt.Errorf("sleep: %w", err)
		}
		t := time.NewTimer(time.Duration(secs * float64(time.Second)))
		defer t.Stop()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
		return out.Stream("stdout", fmt.Sprintf("slept %gs\n", secs))
	case code == "display":
		return out.Display(map[string]any{
			"text/html":  "<b>KernelScope</b> fake <i>display</i>",
			"text/plain": "KernelScope fake display",
		}, nil, "")
	case code == "progress":
		id := fmt.Sprintf("progress-%d", req.ExecutionCount)
		if err := out.Display(map[string]any{"text/plain": "0%"}, nil, id); err != nil {
			return err
		}
		for _, p := range []string{"50%", "100%"} {
			if err := out.UpdateDisplay(map[string]any{"text/plain": p}, nil, id); err != nil {
				return err
			}
		}
		return nil
	case strings.HasPrefix(code, "alloc "):
		mb, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(code, "alloc ")))
		if err != nil || mb < 0 || mb > 4096 {
			return fmt.Errorf("alloc: want megabytes 0-4096, found %q", strings.TrimPrefix(code, "alloc "))
		}
		// Touch every page, as a large simulation does, then drop it all.
		chunks := make([][]byte, mb)
		for i := range chunks {
			chunks[i] = make([]byte, 1<<20)
			for j := 0; j < len(chunks[i]); j += 4096 {
				chunks[i][j] = byte(j)
			}
		}
		return out.Stream("stdout", fmt.Sprintf("allocated %d MB\n", len(chunks)))
	case code == "panic":
		panic("fake engine panic")
	case code == "stderr":
		_, err := fmt.Fprintf(kernel.StreamWriter(out, "stderr"), "to %s\n", "stderr")
		return err
	}
	return out.Stream("stdout", html.UnescapeString(req.Code))
}

// wordBounds returns the byte range of the word (letters, digits, _ and %) around cursor.
func wordBounds(code string, cursor int) (start, end int) {
	cursor = min(max(cursor, 0), len(code))
	isWord := func(c byte) bool {
		return c == '_' || c == '%' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	start, end = cursor, cursor
	for start > 0 && isWord(code[start-1]) {
		start--
	}
	for end < len(code) && isWord(code[end]) {
		end++
	}
	return start, end
}

// Complete offers the known words starting with the text before cursor.
func (Engine) Complete(code string, cursor int) ([]string, int, int) {
	start, _ := wordBounds(code, cursor)
	cursor = min(max(cursor, 0), len(code))
	prefix := code[start:cursor]
	var m []string
	for w := range docs() {
		if prefix != "" && strings.HasPrefix(w, prefix) {
			m = append(m, w)
		}
	}
	sort.Strings(m)
	return m, start, cursor
}

// Inspect documents the known word at cursor.
func (Engine) Inspect(code string, cursor, detail int) (map[string]any, bool) {
	start, end := wordBounds(code, cursor)
	d, ok := docs()[code[start:end]]
	if !ok {
		return nil, false
	}
	return map[string]any{"text/plain": d, "text/html": "<p>" + html.EscapeString(d) + "</p>"}, true
}

// IsComplete reports unbalanced braces or parentheses as incomplete.
func (Engine) IsComplete(code string) (string, string) {
	if code == "panic" {
		panic("fake engine panic in IsComplete")
	}
	depth := 0
	for _, c := range code {
		switch c {
		case '{', '(':
			depth++
		case '}', ')':
			depth--
		}
	}
	switch {
	case depth > 0:
		return "incomplete", strings.Repeat("    ", depth)
	case depth < 0:
		return "invalid", ""
	}
	return "complete", ""
}
