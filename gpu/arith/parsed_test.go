package arith_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/arith"
	"github.com/kernelscope/kernelscope/gpu/isa"
	"github.com/kernelscope/kernelscope/gpu/ptx"
	"github.com/kernelscope/kernelscope/internal/golden"
)

// TestDecodeParsedMatchesDecode: decoding from gpu/isa's parsed modifiers
// gives the same op (or the same error) as decoding from the text, on every
// instruction of the golden PTX of every architecture.
func TestDecodeParsedMatchesDecode(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(golden.Dir(), "ptx", "*.ptx"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden PTX: %v", err)
	}
	n := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m, err := ptx.Parse(filepath.Base(f), src)
		if err != nil {
			t.Fatal(err)
		}
		for _, fn := range m.Funcs {
			for _, in := range fn.Insts {
				if in == nil {
					continue
				}
				mods := isa.ParseMods(in.Mods)
				a, errA := arith.Decode(in)
				b, errB := arith.DecodeParsed(in, mods.Types, mods.Words)
				if fmt.Sprint(errA) != fmt.Sprint(errB) || fmt.Sprintf("%+v", a) != fmt.Sprintf("%+v", b) {
					t.Errorf("%s:%d %s: Decode %+v (%v), DecodeParsed %+v (%v)", filepath.Base(f), in.Pos.Line,
						strings.Join(append([]string{in.Op}, in.Mods...), "."), a, errA, b, errB)
				}
				n++
			}
		}
	}
	t.Logf("%d instructions compared", n)
}
