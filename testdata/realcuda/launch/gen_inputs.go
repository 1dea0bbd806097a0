//go:build ignore

// gen_inputs writes the inputs of harness.cu (run from this folder:
// go run gen_inputs.go). Buffers come from the cell language's own
// initialisers, so a cell can also say rand(1000, -1, 1, 2) instead of file().
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
	put := func(name string, in launch.Init, elem string) []byte {
		b, _, err := launch.Materialise(in, elem, launch.ElemSizes[elem], "", 0)
		if err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile("inputs/"+name, b, 0o644); err != nil {
			log.Fatal(err)
		}
		return b
	}
	r := func(n int, lo, hi float64, seed int64) launch.Init {
		return launch.Init{Func: "rand", N: n, Lo: lo, Hi: hi, Seed: seed, HasRange: true, HasSeed: true}
	}
	put("rev_in.bin", r(1024, 0, 1, 1), "f32")
	put("conv_in.bin", r(1000, -1, 1, 2), "f32")
	put("c_Kernel.bin", r(17, 0, 0.2, 3), "f32")
	put("mm_A.bin", r(32*32, -1, 1, 4), "f32")
	put("mm_B.bin", r(32*48, -1, 1, 5), "f32")
	put("saxpy_x.bin", r(1000, -1, 1, 6), "f32")
	put("saxpy_y.bin", r(1000, -1, 1, 7), "f32")
	put("vec_a.bin", r(512*4, -4, 4, 8), "f32")
	put("vec_c.bin", r(512*2, -1000, 1000, 9), "i32")
	// Particles: x, y, z in [-2, 2), id = 3*i.
	f := func(n int, seed int64) []byte {
		b, _, err := launch.Materialise(r(n, -2, 2, seed), "f32", 4, "", 0)
		if err != nil {
			log.Fatal(err)
		}
		return b
	}
	xyz := f(512*3, 10)
	p := make([]byte, 512*16)
	for i := 0; i < 512; i++ {
		copy(p[i*16:i*16+12], xyz[i*12:i*12+12])
		binary.LittleEndian.PutUint32(p[i*16+12:], uint32(3*i))
	}
	if err := os.WriteFile("inputs/vec_p.bin", p, 0o644); err != nil {
		log.Fatal(err)
	}
}
