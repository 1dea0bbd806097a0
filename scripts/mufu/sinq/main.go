// Command sinq builds testdata/measured/mufu/sin_q.d32.gz, the H200's
// MUFU.SIN quarter-wave table, from the raw outputs of scripts/mufu/run4.sh
// (dump.cu; the unpacked, xz-decompressed <fn>_<bucket>.d32 files).
//
// sin.approx.f32(x) is MUFU.SIN of r = RZ(x * 0.15915494f). The unit reads
// p = floor(|r| 2^25) mod 2^25 (cos: p + 2^23), quadrant q = p >> 23, and
// u = p mod 2^23, replaced by its one's complement 2^23 - 1 - u in odd
// quadrants; the result is Q[u], negated for q >= 2 and, for sin, for r < 0.
// Every sin bucket in the run gives Q[u] for the u it reaches; buckets 104 to
// 127 reach every u. The command checks that no two inputs disagree (also
// the cos buckets, which reach Q through p + 2^23) and writes Q as u32
// deltas (each minus the previous, mod 2^32), gzip.
//
// Run: go run ./scripts/mufu/sinq DIR   (DIR holds sin_127.d32 etc.)
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: sinq DIR")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "sinq:", err)
		os.Exit(1)
	}
}

func load(path string) ([]uint32, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(b) != 4<<23 {
		return nil, fmt.Errorf("%s: %d bytes, want 2^25", path, len(b))
	}
	o := make([]uint32, 1<<23)
	var acc uint32
	for i := range o {
		acc += binary.LittleEndian.Uint32(b[4*i:])
		o[i] = acc
	}
	return o, nil
}

// rz is FMUL.RZ x * 0.15915494f.
func rz(x float32) float64 {
	p := float64(x) * float64(math.Float32frombits(0x3e22f983))
	f := float32(p)
	if math.Abs(float64(f)) > math.Abs(p) {
		f = math.Nextafter32(f, 0)
	}
	return float64(f)
}

func run(dir string) error {
	Q := make([]uint32, 1<<23)
	have := make([]bool, 1<<23)
	n := 0
	for _, fn := range []string{"sin", "cos"} {
		for b := 0; b < 512; b++ {
			path := filepath.Join(dir, fmt.Sprintf("%s_%03d.d32", fn, b))
			if _, err := os.Stat(path); err != nil {
				continue
			}
			o, err := load(path)
			if err != nil {
				return err
			}
			for i, v := range o {
				x := math.Float32frombits(uint32(b)<<23 | uint32(i))
				p := int64(math.Floor(math.Abs(rz(x))*(1<<25))) % (1 << 25)
				if fn == "cos" {
					p = (p + 1<<23) % (1 << 25)
				}
				q, u := p>>23, p&(1<<23-1)
				if q&1 == 1 {
					u = 1<<23 - 1 - u
				}
				if (q >= 2) != (fn == "sin" && b >= 256) {
					v ^= 0x80000000
				}
				if have[u] && Q[u] != v {
					return fmt.Errorf("%s bucket %d input %d: Q[%d] = %08x, earlier %08x", fn, b, i, u, v, Q[u])
				}
				if fn == "cos" && !have[u] {
					continue // the table comes from sin; cos only checks
				}
				if !have[u] {
					n++
				}
				Q[u], have[u] = v, true
			}
		}
	}
	if n != 1<<23 {
		return fmt.Errorf("the sin buckets reach %d of 2^23 table entries", n)
	}
	var raw bytes.Buffer
	var prev uint32
	for _, v := range Q {
		var w [4]byte
		binary.LittleEndian.PutUint32(w[:], v-prev)
		raw.Write(w[:])
		prev = v
	}
	var out bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&out, gzip.BestCompression)
	zw.Write(raw.Bytes())
	zw.Close()
	if err := os.WriteFile("testdata/measured/mufu/sin_q.d32.gz", out.Bytes(), 0o644); err != nil {
		return err
	}
	fmt.Println("sinq: all 2^23 entries, sin and cos consistent; wrote testdata/measured/mufu/sin_q.d32.gz")
	return nil
}
