package arith

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The H200's special functions measured over all 2^32 inputs
// (scripts/mufu/mufu.cu, recorded in testdata/measured/mufu): per bucket
// (bits>>23: sign and biased exponent) a checksum of the outputs and a
// histogram of the error against the correctly rounded value.

const measuredMufu = "../../testdata/measured/mufu"

// mix64 is the splitmix64 finaliser the device checksum uses.
func mix64(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// mufuStats is one function's measured per-bucket record.
type mufuStats struct {
	hash, refhash [512]uint64
	hist          [512][12]uint64
}

func loadMufuStats(t testing.TB, name string) *mufuStats {
	t.Helper()
	f, err := os.Open(filepath.Join(measuredMufu, "stats", name+".stats.gz"))
	if err != nil {
		t.Fatalf("measured %s: %v", name, err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("measured %s: %v", name, err)
	}
	st := &mufuStats{}
	sc := bufio.NewScanner(zr)
	n := 0
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		fs := strings.Fields(line)
		if len(fs) != 15 {
			t.Fatalf("%s.stats: bad line %q", name, line)
		}
		b, err := strconv.Atoi(fs[0])
		if err != nil || b < 0 || b >= 512 {
			t.Fatalf("%s.stats: bad bucket in %q", name, line)
		}
		st.hash[b], _ = strconv.ParseUint(fs[1], 16, 64)
		st.refhash[b], _ = strconv.ParseUint(fs[2], 16, 64)
		for k := 0; k < 12; k++ {
			st.hist[b][k], _ = strconv.ParseUint(fs[3+k], 10, 64)
		}
		n++
	}
	if n != 512 {
		t.Fatalf("%s.stats: %d buckets, want 512", name, n)
	}
	return st
}

// bucketHash is the device checksum of f over the 2^23 inputs of bucket b.
func bucketHash(b int, f func(uint32) uint32) uint64 {
	var h uint64
	base := uint32(b) << 23
	for i := uint32(0); i < 1<<23; i++ {
		in := base + i
		h += mix64(uint64(in)<<32 | uint64(f(in)))
	}
	return h
}

// unaryEval returns the model of a one-input f32 instruction as a function of bits.
func unaryEval(t testing.TB, name string) func(uint32) uint32 {
	o := dec(t, name, 1)
	return func(x uint32) uint32 {
		s := [4]uint64{uint64(x)}
		var cc uint8
		d, _ := o.Eval(&s, &cc)
		return uint32(d)
	}
}

func bucketName(b int) string {
	s := "+"
	if b >= 256 {
		s = "-"
	}
	e := b & 255
	switch e {
	case 0:
		return s + "subnormal"
	case 255:
		return s + "inf/nan"
	}
	return fmt.Sprintf("%s2^%d", s, e-127)
}
