package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// SanitizerTruth is testdata/realcode/h200/sanitizer.json: what NVIDIA's compute-sanitizer said
// on the H200 about each kernel's harness (scripts/realcode/sanitize.sh), per tool.
type SanitizerTruth struct {
	Version string                           `json:"version"`
	Kernels map[string]map[string]*ToolTruth `json:"kernels"` // id -> racecheck|synccheck|memcheck|initcheck
}

// ToolTruth is one compute-sanitizer run: its exit status, summary and distinct findings.
type ToolTruth struct {
	Exit     int      `json:"exit"`
	Summary  string   `json:"summary"`            // "RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)"
	Findings []string `json:"findings,omitempty"` // "Potential RAW hazard ... at file.cu:36 / file.cu:37" (distinct, at most 8)
}

var (
	sanLogRE   = regexp.MustCompile(`^(\w+)\.(racecheck|synccheck|memcheck|initcheck)\.txt$`)
	sanLineRE  = regexp.MustCompile(`in (\w+\.cu:\d+)`)
	sanBlockRE = regexp.MustCompile(` (at|in block) .*$`)
)

// ParseSanitizerLog reads one compute-sanitizer log as sanitize.sh writes it (ending "exit N").
// A finding is a headline ("Invalid __shared__ read of size 8 bytes", "Warning: ... hazard") with
// the source locations of the lines under it; addresses, threads and blocks are dropped so
// that findings differing only in them merge.
func ParseSanitizerLog(text string) *ToolTruth {
	t := &ToolTruth{Exit: -1}
	seen := map[string]bool{}
	var head string
	var locs []string
	flush := func() {
		if head == "" {
			return
		}
		f := head
		if len(locs) > 0 {
			f += " at " + strings.Join(locs, " / ")
		}
		if !seen[f] && len(t.Findings) < 8 {
			seen[f] = true
			t.Findings = append(t.Findings, f)
		}
		head, locs = "", nil
	}
	for _, l := range strings.Split(text, "\n") {
		if n, ok := strings.CutPrefix(l, "exit "); ok {
			if v, err := strconv.Atoi(strings.TrimSpace(n)); err == nil {
				t.Exit = v
			}
			continue
		}
		body, ok := strings.CutPrefix(l, "=========")
		if !ok {
			continue
		}
		switch {
		case strings.Contains(body, "SUMMARY:"):
			flush()
			if t.Summary == "" {
				t.Summary = strings.TrimSpace(body)
			}
		case strings.HasPrefix(body, " ") && !strings.HasPrefix(body, "  ") && strings.TrimSpace(body) != "" && !strings.Contains(body, "COMPUTE-SANITIZER") && !strings.Contains(body, "Target application"):
			flush()
			head = sanBlockRE.ReplaceAllString(strings.TrimSpace(body), "")
		case head != "" && !strings.Contains(body, "Host Frame"):
			if m := sanLineRE.FindStringSubmatch(body); m != nil {
				loc := m[1]
				if w := strings.Fields(body); len(w) > 1 && w[1] == "Thread" {
					loc = strings.ToLower(w[0]) + " " + loc // "write tt_x.cu:36" of racecheck's pairs
				}
				locs = append(locs, loc)
			}
		}
	}
	flush()
	return t
}

// IngestSanitizer reads the unpacked realcode_sanitizer.tgz (raw/log/ID.TOOL.txt) into
// h200/sanitizer.json.
func IngestSanitizer(raw, h200 string) error {
	st := &SanitizerTruth{Kernels: map[string]map[string]*ToolTruth{}}
	if b, err := os.ReadFile(filepath.Join(raw, "version.txt")); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, "Version") {
				st.Version = strings.TrimSpace(l)
			}
		}
	}
	ents, err := os.ReadDir(filepath.Join(raw, "log"))
	if err != nil {
		return fmt.Errorf("sanitizer results: %w", err)
	}
	for _, e := range ents {
		m := sanLogRE.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join(raw, "log", e.Name()))
		if err != nil {
			return err
		}
		if st.Kernels[m[1]] == nil {
			st.Kernels[m[1]] = map[string]*ToolTruth{}
		}
		st.Kernels[m[1]][m[2]] = ParseSanitizerLog(string(b))
	}
	b, err := json.MarshalIndent(st, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(h200, "sanitizer.json"), append(b, '\n'), 0o644)
}

// LoadSanitizer reads sanitizer.json; nil when there is none.
func LoadSanitizer(h200 string) (*SanitizerTruth, error) {
	b, err := os.ReadFile(filepath.Join(h200, "sanitizer.json"))
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var st SanitizerTruth
	if err := json.Unmarshal(b, &st); err != nil {
		return nil, fmt.Errorf("sanitizer.json: %w", err)
	}
	return &st, nil
}

// Flagged is a one-line account of what compute-sanitizer found for a kernel ("" when every
// tool it ran came back clean).
func (st *SanitizerTruth) Flagged(id string) string {
	if st == nil {
		return ""
	}
	var p []string
	tools := st.Kernels[id]
	for _, name := range sortedKeys(tools) {
		t := tools[name]
		if len(t.Findings) == 0 && t.Exit == 0 {
			continue
		}
		s := name + ": " + t.Summary
		if len(t.Findings) > 0 {
			s += "; " + strings.Join(t.Findings, "; ")
		}
		p = append(p, s)
	}
	sort.Strings(p)
	return strings.Join(p, " · ")
}
