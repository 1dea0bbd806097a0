package sim

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// isaVariant is one entry of isa/index.json.
type isaVariant struct {
	Name   string   `json:"name"`
	Slug   string   `json:"slug"`
	Dst    string   `json:"dst"`
	Srcs   []string `json:"srcs"`
	PTX    string   `json:"ptx"`
	N      int      `json:"n"`
	Grid   [3]int   `json:"grid"`
	Block  [3]int   `json:"block"`
	Inputs []string `json:"inputs"`
	Output string   `json:"output"`
	Status string   `json:"status"`
}

// warpLevel reports whether a variant's result depends on other lanes.
func (v *isaVariant) warpLevel() bool {
	for _, p := range []string{"shfl", "vote", "match", "redux", "activemask"} {
		if strings.HasPrefix(v.Name, p) {
			return true
		}
	}
	return false
}

// runISA launches one oracle variant and returns d and the number of rows (of the
// destination's element size) that differ from the H200's.
func runISA(t *testing.T, v *isaVariant) (bad, rows int, first string, err error) {
	m := parsePTXFile(t, filepath.Join(goldenDir, v.PTX))
	want, rerr := os.ReadFile(filepath.Join(goldenDir, v.Output))
	if rerr != nil {
		t.Fatal(rerr)
	}
	args := make([]Arg, 5)
	for i := 0; i < 3; i++ {
		args[i].Buffer = make([]byte, 4)
		if i < len(v.Inputs) {
			b, err := os.ReadFile(filepath.Join(goldenDir, v.Inputs[i]))
			if err != nil {
				t.Fatal(err)
			}
			args[i].Buffer = b
		}
	}
	args[3].Buffer = make([]byte, len(want))
	args[4].Scalar = uint64(v.N)
	res, err := Launch(context.Background(), m, "isa", args, Config{Grid: v.Grid, Block: v.Block, Trace: TraceConfig{MaxSteps: -1}})
	if err != nil {
		return 0, 0, "", err
	}
	got := res.Buffers[3]
	es := len(want) / v.N
	if es == 0 {
		es = 1
	}
	rows = len(want) / es
	for i := 0; i < rows; i++ {
		g, w := got[i*es:(i+1)*es], want[i*es:(i+1)*es]
		if string(g) != string(w) {
			if bad == 0 {
				first = formatRow(i, g, w)
			}
			bad++
		}
	}
	return bad, rows, first, nil
}

func formatRow(i int, g, w []byte) string {
	return "row " + itoa(i) + ": got " + hexLE(g) + " want " + hexLE(w)
}

func hexLE(b []byte) string {
	const digits = "0123456789abcdef"
	s := make([]byte, 0, 2+2*len(b))
	s = append(s, '0', 'x')
	for i := len(b) - 1; i >= 0; i-- {
		s = append(s, digits[b[i]>>4], digits[b[i]&15])
	}
	return string(s)
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var s []byte
	for ; i > 0; i /= 10 {
		s = append([]byte{byte('0' + i%10)}, s...)
	}
	return string(s)
}

// TestISAOracle runs every variant the H200 accepted as a full kernel launch
// and compares d bit for bit. Warp-level variants (shfl, vote, match, redux,
// activemask) are this package's semantics and must all be exact; lane-local
// variants depend on package arith and are reported (.approx ones are
// reported only: the manual bounds their error rather than fixing their bits).
func TestISAOracle(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(goldenDir, "isa", "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	var vs []isaVariant
	if err := json.Unmarshal(b, &vs); err != nil {
		t.Fatal(err)
	}
	var okWarp, nWarp, okLocal, nLocal int
	var failed []string
	for i := range vs {
		v := &vs[i]
		if v.Status != "ok" {
			continue
		}
		bad, rows, first, err := runISA(t, v)
		exact := err == nil && bad == 0
		if v.warpLevel() {
			nWarp++
			if exact {
				okWarp++
			} else if err != nil {
				t.Errorf("%s: %v", v.Name, err)
			} else {
				t.Errorf("%s: %d of %d rows differ; %s", v.Name, bad, rows, first)
			}
			continue
		}
		nLocal++
		if exact {
			okLocal++
			continue
		}
		if err != nil {
			t.Errorf("%s: launch failed: %v", v.Name, err)
		} else {
			failed = append(failed, v.Name+": "+itoa(bad)+"/"+itoa(rows)+" rows differ; "+first)
		}
	}
	sort.Strings(failed)
	for _, f := range failed {
		t.Logf("lane-local mismatch: %s", f)
	}
	t.Logf("ISA oracle: warp-level %d of %d bit-exact; lane-local %d of %d bit-exact", okWarp, nWarp, okLocal, nLocal)
}
