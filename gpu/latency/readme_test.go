package latency

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the generated table in README.md")

// renderTable renders every class of every architecture as markdown:
// latency/issue interval per architecture, and the sm_90 pipe.
func renderTable() (string, error) {
	var tabs []*Table
	for _, a := range Archs() {
		t, err := For(a)
		if err != nil {
			return "", err
		}
		tabs = append(tabs, t)
	}
	var b strings.Builder
	b.WriteString("| class | pipe (sm_90) | dep |")
	for _, t := range tabs {
		b.WriteString(" " + t.Arch + " |")
	}
	b.WriteString("\n|---|---|---|" + strings.Repeat("---|", len(tabs)) + "\n")
	for c := Class(0); c < NumClasses; c++ {
		t0 := tabs[0].ClassTiming(c)
		for _, t := range tabs {
			if t.Arch == "sm_90" {
				t0 = t.ClassTiming(c)
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %s |", c, t0.Pipe, t0.Dep)
		for _, t := range tabs {
			tm := t.ClassTiming(c)
			fmt.Fprintf(&b, " %d / %d |", tm.Latency, tm.IssueCycles)
		}
		b.WriteString("\n")
	}
	b.WriteString("| memory: shared / L1 / L2 / DRAM | | |")
	for _, t := range tabs {
		fmt.Fprintf(&b, " %d / %d / %d / %d |", t.Mem.Shared, t.Mem.L1Hit, t.Mem.L2Hit, t.Mem.DRAM)
	}
	b.WriteString("\n| DRAM, L2 bytes/cycle (GPU) | | |")
	for _, t := range tabs {
		fmt.Fprintf(&b, " %.0f, %.0f |", t.Mem.DRAMBytesPerCycle, t.Mem.L2BytesPerCycle)
	}
	b.WriteString("\n")
	return b.String(), nil
}

// TestREADMETable checks that README.md shows the tables as the code has
// them; go test ./gpu/latency -run READMETable -update rewrites it.
func TestREADMETable(t *testing.T) {
	const begin, end = "<!-- table:begin -->\n", "<!-- table:end -->"
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatal("README.md lacks the table markers")
	}
	want, err := renderTable()
	if err != nil {
		t.Fatal(err)
	}
	if s[i+len(begin):j] == want {
		return
	}
	if !*update {
		t.Fatal("README.md table is stale: go test ./gpu/latency -run READMETable -update")
	}
	if err := os.WriteFile("README.md", []byte(s[:i+len(begin)]+want+s[j:]), 0o644); err != nil {
		t.Fatal(err)
	}
}
