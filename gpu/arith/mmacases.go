package arith

import (
	"encoding/binary"
	"fmt"
	"os"
)

// MMACases are the recorded device runs of one mma form (testdata/measured/tensor):
// the first NCal cases are calibration cases, the rest validation cases.
type MMACases struct {
	NCal  int
	Cases []MMACase
}

// MMACase is one warp's operands and the device's D, all row-major element bits.
type MMACase struct {
	A, B, C, D []uint64
}

// LoadMMACases reads a case file (two header words: cases, calibration cases; then per
// case and lane the A, B and C fragment registers) and the device's D fragments.
func LoadMMACases(inPath, outPath string, m *MMA) (*MMACases, error) {
	in, err := os.ReadFile(inPath)
	if err != nil {
		return nil, fmt.Errorf("mma cases: %w", err)
	}
	out, err := os.ReadFile(outPath)
	if err != nil {
		return nil, fmt.Errorf("mma cases: %w", err)
	}
	word := func(b []byte, i int) uint64 { return uint64(binary.LittleEndian.Uint32(b[4*i:])) }
	if len(in) < 8 {
		return nil, fmt.Errorf("mma cases: %s is too short", inPath)
	}
	n, ncal := int(word(in, 0)), int(word(in, 1))
	na, nb, nc, nd := m.Regs()
	wide := 1
	if m.A == ElemF64 {
		wide = 2
	}
	win, wout := (na+nb+nc)*wide, nd*wide
	if len(in) != 8+4*n*32*win || len(out) != 4*n*32*wout {
		return nil, fmt.Errorf("mma cases: %s and %s do not hold %d cases of this form", inPath, outPath, n)
	}
	cs := &MMACases{NCal: ncal}
	reg := func(b []byte, base, i int) uint64 {
		if wide == 2 {
			return word(b, base+2*i) | word(b, base+2*i+1)<<32
		}
		return word(b, base+i)
	}
	unpack := func(e MMAElem, x []uint64, cols int, loc func(lane, i int) (int, int), b []byte, base, nregs, lane int) {
		per, nbits := e.PerReg(), e.Bits()
		mk := ^uint64(0)
		if nbits < 64 {
			mk = 1<<uint(nbits) - 1
		}
		for r := 0; r < nregs; r++ {
			v := reg(b, base, r)
			for i := 0; i < per; i++ {
				row, col := loc(lane, r*per+i)
				x[row*cols+col] = v >> uint(i*nbits) & mk
			}
		}
	}
	for k := 0; k < n; k++ {
		c := MMACase{A: make([]uint64, m.M*m.K), B: make([]uint64, m.K*m.N), C: make([]uint64, m.M*m.N), D: make([]uint64, m.M*m.N)}
		for lane := 0; lane < 32; lane++ {
			base := 2 + (k*32+lane)*win
			unpack(m.A, c.A, m.K, m.ALoc, in, base, na, lane)
			unpack(m.B, c.B, m.N, m.BLoc, in, base+na*wide, nb, lane)
			unpack(m.C, c.C, m.N, m.CLoc, in, base+(na+nb)*wide, nc, lane)
			unpack(m.D, c.D, m.N, m.CLoc, out, (k*32+lane)*wout, nd, lane)
		}
		cs.Cases = append(cs.Cases, c)
	}
	return cs, nil
}

// Mismatches counts the elements of D that m computes differently from the device.
func (c *MMACase) Mismatches(m *MMA) int {
	d := make([]uint64, len(c.D))
	m.Compute(c.A, c.B, c.C, d)
	n := 0
	for i := range d {
		if d[i] != c.D[i] {
			n++
		}
	}
	return n
}
