// Command tanhgroups builds testdata/measured/mufu/tanh_groups.d32.gz: for the
// binades where MUFU.TANH's table is modelled (gpu/arith tanhBins), one
// tanh.approx.f32 output per group of 2^drop consecutive inputs (the unit
// ignores the drop low mantissa bits there; the command checks that every
// group is constant). Input: a directory of raw bucket outputs
// tanh_<bucket>.d32 (u32 deltas: out[i] = out[i-1] + d[i]): buckets 119-124
// and 130 from the fourth run (scripts/mufu/run4.sh, 2026-12-02), 125-129
// rebuilt from the 2026-12-01 run's error arrays (checked against its
// checksums). Output: the groups of each bucket in the order of tanhBins, u32
// deltas over the whole file, gzip.
//
// Run: go run ./scripts/mufu/tanhgroups DIR
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
)

// bins mirrors gpu/arith's tanhBins: biased exponent and dropped bits.
var bins = [][2]int{{119, 6}, {120, 6}, {121, 6}, {122, 5}, {123, 5}, {124, 4}, {125, 4}, {126, 4}, {127, 3}, {128, 2}, {129, 3}, {130, 3}}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: tanhgroups DIR")
		os.Exit(2)
	}
	var raw bytes.Buffer
	var prev uint32
	for _, bd := range bins {
		path := filepath.Join(os.Args[1], fmt.Sprintf("tanh_%03d.d32", bd[0]))
		b, err := os.ReadFile(path)
		if err != nil || len(b) != 4<<23 {
			fmt.Fprintf(os.Stderr, "tanhgroups: %s: %d bytes, %v\n", path, len(b), err)
			os.Exit(1)
		}
		var acc uint32
		g := 1 << bd[1]
		var first uint32
		for i := 0; i < 1<<23; i++ {
			acc += binary.LittleEndian.Uint32(b[4*i:])
			if i%g == 0 {
				first = acc
				var w [4]byte
				binary.LittleEndian.PutUint32(w[:], acc-prev)
				raw.Write(w[:])
				prev = acc
			} else if acc != first {
				fmt.Fprintf(os.Stderr, "tanhgroups: bucket %d input %d: %08x differs from its group's %08x\n", bd[0], i, acc, first)
				os.Exit(1)
			}
		}
	}
	var out bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&out, gzip.BestCompression)
	zw.Write(raw.Bytes())
	zw.Close()
	if err := os.WriteFile("testdata/measured/mufu/tanh_groups.d32.gz", out.Bytes(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "tanhgroups:", err)
		os.Exit(1)
	}
	fmt.Printf("tanhgroups: %d buckets, every group constant; wrote testdata/measured/mufu/tanh_groups.d32.gz (%d bytes)\n", len(bins), out.Len())
}
