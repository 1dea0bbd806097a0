package arith

import "testing"

// TestMufuDivChecksums compares div.approx/div.full with one operand fixed
// against the H200's checksums over whole buckets of the other operand
// (scripts/mufu/mufu.cu: stats/div.*_aXXXXXXXX with the dividend fixed,
// _bXXXXXXXX with the divisor fixed), on buckets where the model is exact:
// with the divisor 1.5 every bucket tried is (RCP(1.5) and the FMUL), with
// the dividend 1.5 the subnormal/huge divisors that the scaling handles.
func TestMufuDivChecksums(t *testing.T) {
	cases := []struct {
		name, rec string
		fixed     uint32
		divisor   bool // the fixed operand is the divisor
		buckets   []int
	}{
		{"div.approx.f32", "a3fc00000", 0x3fc00000, false, []int{254, 511}},
		{"div.approx.ftz.f32", "a3fc00000", 0x3fc00000, false, []int{0, 254}},
		{"div.full.f32", "a3fc00000", 0x3fc00000, false, []int{255}},
		{"div.full.ftz.f32", "a3fc00000", 0x3fc00000, false, []int{256, 254 + 256}},
		{"div.approx.f32", "b3fc00000", 0x3fc00000, true, []int{0, 1, 100, 254}},
		{"div.full.f32", "b3fc00000", 0x3fc00000, true, []int{256, 254, 511}},
	}
	for _, c := range cases {
		st := loadMufuStats(t, c.name+"_"+c.rec)
		o := dec(t, c.name, 2)
		f := func(x uint32) uint32 {
			s := [4]uint64{uint64(c.fixed), uint64(x)}
			if c.divisor {
				s = [4]uint64{uint64(x), uint64(c.fixed)}
			}
			var cc uint8
			d, _ := o.Eval(&s, &cc)
			return uint32(d)
		}
		for _, b := range c.buckets {
			if h := bucketHash(b, f); h != st.hash[b] {
				t.Errorf("%s (%s) on %s: model checksum %016x, H200 %016x", c.name, c.rec, bucketName(b), h, st.hash[b])
			}
		}
	}
}
