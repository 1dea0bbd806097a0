package sass

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestOpcodeDocsCoverGoldenListings: every opcode in a recorded listing
// (cuobjdump -sass and nvdisasm, sm_75 to sm_90) has a meaning in the table.
func TestOpcodeDocsCoverGoldenListings(t *testing.T) {
	var files []string
	for _, pat := range []string{"*.sass", "*.nvdisasm"} {
		m, err := filepath.Glob(filepath.Join("../../testdata/golden/sass", pat))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 20 {
		t.Fatalf("only %d golden listings found", len(files))
	}
	seen := map[string]string{}
	archs := map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		l, err := Parse(string(b))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		archs[l.Arch] = true
		for _, fn := range l.Funcs {
			for _, in := range fn.Insts {
				seen[in.Op] = filepath.Base(f)
			}
		}
	}
	for _, a := range []string{"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"} {
		if !archs[a] {
			t.Errorf("no golden listing for %s", a)
		}
	}
	var missing []string
	for op, f := range seen {
		if _, ok := OpcodeDoc(op); !ok {
			missing = append(missing, op+" ("+f+")")
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("SASS opcodes without documentation: %s", strings.Join(missing, ", "))
	}
	if len(seen) < 30 {
		t.Errorf("only %d distinct opcodes in the golden listings", len(seen))
	}
}

// TestOpcodeTable: entries are sorted, unique, upper case, one line, with architectures.
func TestOpcodeTable(t *testing.T) {
	for i, d := range opDocs {
		if i > 0 && opDocs[i-1].Opcode >= d.Opcode {
			t.Errorf("table not sorted or duplicated at %s", d.Opcode)
		}
		if d.Opcode != strings.ToUpper(d.Opcode) || d.Summary == "" || strings.Contains(d.Summary, "\n") || len(d.Summary) > 140 {
			t.Errorf("bad entry %+v", d)
		}
		if !strings.HasPrefix(d.Archs, "sm_") {
			t.Errorf("%s: architectures %q", d.Opcode, d.Archs)
		}
	}
	for _, q := range []string{"@!P0 IMAD.WIDE.U32", "IMAD", "  @P1 LDG.E.64", "ISETP.GE.AND"} {
		if _, ok := OpcodeDoc(q); !ok {
			t.Errorf("OpcodeDoc(%q) not found", q)
		}
	}
	if _, ok := OpcodeDoc("NOTANOP"); ok {
		t.Error("an unknown opcode has documentation")
	}
	if got := Opcodes(); len(got) != len(opDocs) || !sort.StringsAreSorted(got) {
		t.Error("Opcodes() not the sorted table")
	}
}
