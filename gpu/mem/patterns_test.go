package mem

import (
	"encoding/csv"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"testing"
)

const golden = "../../testdata/golden/"

// patternIndex turns a pattern name of memory_patterns_sm90.csv into the element
// index lane t reads (README: 2t = 2*t, tm16 = t%16, 16tm16 = (t%16)*16,
// th2 = t/2, rev = 31-t, t1 = t+1, 0 = all lanes index 0).
func patternIndex(p string, t int) (int, error) {
	switch p {
	case "0":
		return 0, nil
	case "t":
		return t, nil
	case "t1":
		return t + 1, nil
	case "rev":
		return 31 - t, nil
	}
	if m := regexp.MustCompile(`^(\d*)tm(\d+)$`).FindStringSubmatch(p); m != nil {
		mod, _ := strconv.Atoi(m[2])
		k := 1
		if m[1] != "" {
			k, _ = strconv.Atoi(m[1])
		}
		return k * (t % mod), nil
	}
	if m := regexp.MustCompile(`^th(\d+)$`).FindStringSubmatch(p); m != nil {
		d, _ := strconv.Atoi(m[1])
		return t / d, nil
	}
	if m := regexp.MustCompile(`^(\d+)t$`).FindStringSubmatch(p); m != nil {
		k, _ := strconv.Atoi(m[1])
		return k * t, nil
	}
	return 0, fmt.Errorf("unknown pattern %q", p)
}

// patternAccess builds the warp access a pattern kernel performed.
func patternAccess(name string) (*Access, error) {
	m := regexp.MustCompile(`^([sg])(\d+)_(.+)$`).FindStringSubmatch(name)
	if m == nil {
		return nil, fmt.Errorf("bad kernel name %q", name)
	}
	bits, _ := strconv.Atoi(m[2])
	a := &Access{Kind: Load, Bytes: bits / 8, Mask: 0xffffffff}
	base := uint64(0) // shared window offset
	if m[1] == "g" {
		a.Space = Global
		base = 0x7f12_3456_0000 // cudaMalloc'd buffers are 256-byte aligned
	} else {
		a.Space = Shared
	}
	for t := 0; t < 32; t++ {
		idx, err := patternIndex(m[3], t)
		if err != nil {
			return nil, err
		}
		a.Addr[t] = base + uint64(idx*a.Bytes)
	}
	return a, nil
}

// TestMemoryPatternsSM90 reproduces every row of memory_patterns_sm90.csv.
func TestMemoryPatternsSM90(t *testing.T) {
	f, err := os.Open(golden + "memory_patterns_sm90.csv")
	if err != nil {
		t.Fatalf("open golden: %v", err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("read golden: %v", err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	num := func(r []string, k string) float64 {
		i, ok := col[k]
		if !ok {
			t.Fatalf("column %s missing", k)
		}
		v, err := strconv.ParseFloat(r[i], 64)
		if err != nil {
			t.Fatalf("%s %s: %v", r[0], k, err)
		}
		return v
	}
	shared, global := 0, 0
	for _, r := range recs[1:] {
		a, err := patternAccess(r[0])
		if err != nil {
			t.Fatal(err)
		}
		if a.Space == Shared {
			shared++
			insts := num(r, "smsp__sass_inst_executed_op_shared_ld.sum")
			wantW := num(r, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum") / insts
			wantC := num(r, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum") / insts
			w, ideal := SharedWavefronts(a)
			if float64(w) != wantW || float64(w-ideal) != wantC {
				t.Errorf("%s: wavefronts %d conflicts %d, H200 %v and %v", r[0], w, w-ideal, wantW, wantC)
			}
			continue
		}
		global++
		req, sec, ideal := GlobalSectors(a)
		wantReq := num(r, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum")
		wantSec := num(r, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum")
		if float64(req) != wantReq || float64(sec) != wantSec {
			t.Errorf("%s: %d requests %d sectors, H200 %v and %v", r[0], req, sec, wantReq, wantSec)
		}
		if ideal > sec {
			t.Errorf("%s: ideal %d above actual %d", r[0], ideal, sec)
		}
	}
	if shared != 19 || global != 12 {
		t.Errorf("patterns: %d shared %d global, want 19 and 12", shared, global)
	}
}
