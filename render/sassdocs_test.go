package render

import (
	"encoding/json"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/sass"
	"github.com/kernelscope/kernelscope/internal/golden"
)

var (
	sassColRE = regexp.MustCompile(`(?s)<div class="ks-col ks-sass">.*?</pre></div>`)
	dataOpRE  = regexp.MustCompile(`<span class="ks-op" data-op="([^"]+)">`)
	opDocsRE  = regexp.MustCompile(`<script type="application/json" class="ks-opdocs">(.*?)</script>`)
)

// TestSASSOpcodeDocsInReport: a report that shows a SASS listing carries the
// hover documentation of every opcode of that listing (from gpu/sass's
// table), each opcode marked in the SASS pane; one docs table per report.
func TestSASSOpcodeDocsInReport(t *testing.T) {
	rep := goldenReport(t, "vector_add")
	files, err := filepath.Glob(filepath.Join(golden.Dir(), "sass", "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden listings: %v", err)
	}
	for _, f := range files {
		if !strings.HasSuffix(f, ".sass") && !strings.HasSuffix(f, ".nvdisasm") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		l, err := sass.Parse(string(b))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		want := map[string]bool{}
		for _, fn := range l.Funcs {
			for _, in := range fn.Insts {
				want[in.Op] = true
			}
		}
		rep.SASS = string(b)
		h, err := HTML(rep, nil, Options{Requested: map[string]bool{"sass": true}})
		if err != nil {
			t.Fatal(err)
		}
		col := sassColRE.FindString(h)
		if col == "" {
			t.Fatalf("%s: no SASS pane", filepath.Base(f))
		}
		marked := map[string]bool{}
		for _, m := range dataOpRE.FindAllStringSubmatch(col, -1) {
			marked[html.UnescapeString(m[1])] = true
		}
		blocks := opDocsRE.FindAllStringSubmatch(h, -1)
		if len(blocks) != 1 {
			t.Fatalf("%s: %d opcode-docs tables, want one", filepath.Base(f), len(blocks))
		}
		var docs map[string]string
		if err := json.Unmarshal([]byte(strings.ReplaceAll(blocks[0][1], `<\/`, "</")), &docs); err != nil {
			t.Fatalf("%s: docs JSON: %v", filepath.Base(f), err)
		}
		for op := range want {
			if !marked[op] {
				t.Errorf("%s: opcode %s not marked in the SASS pane", filepath.Base(f), op)
			}
			d, ok := sass.OpcodeDoc(op)
			if !ok || docs[op] != d.Summary {
				t.Errorf("%s: opcode %s has no hover documentation in the report (%q)", filepath.Base(f), op, docs[op])
			}
		}
		if docs["ld"] == "" {
			t.Errorf("%s: the PTX opcodes' docs are lost", filepath.Base(f))
		}
	}
}
