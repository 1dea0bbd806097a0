//go:build ignore

// gen_inputs writes the inputs of harness.cu and assert_harness.cu (run from this
// folder: go run gen_inputs.go). Buffers come from the cell language's own
// initialisers (rand(N, lo, hi, seed)).
package main

import (
	"encoding/binary"
	"log"
	"os"

	"github.com/kernelscope/kernelscope/gpu/launch"
)

func main() {
	if err := os.MkdirAll("inputs", 0o755); err != nil {
		log.Fatal(err)
	}
	put := func(name string, n int, lo, hi float64, seed int64, elem string) []byte {
		in := launch.Init{Func: "rand", N: n, Lo: lo, Hi: hi, Seed: seed, HasRange: true, HasSeed: true}
		b, _, err := launch.Materialise(in, elem, launch.ElemSizes[elem], "", 0)
		if err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile("inputs/"+name, b, 0o644); err != nil {
			log.Fatal(err)
		}
		return b
	}
	put("cg_in.bin", 512, -1000, 1000, 21, "i32")
	put("hints_in.bin", 16384/4, -1e6, 1e6, 22, "i32")
	put("cub_in.bin", 2048, -100000, 100000, 23, "i32")
	put("cub_fin.bin", 512, -1, 1, 24, "f32")
	ok := put("assert_in.bin", 128, 0, 1000, 25, "i32")
	// The same with one negative element, at index 70 (block 1, thread 6).
	bad := append([]byte(nil), ok...)
	binary.LittleEndian.PutUint32(bad[70*4:], uint32(0xfffffff9)) // -7
	if err := os.WriteFile("inputs/assert_bad.bin", bad, 0o644); err != nil {
		log.Fatal(err)
	}
}
