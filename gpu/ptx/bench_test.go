package ptx

import (
	"bytes"
	"os"
	"testing"
)

// BenchmarkParse parses the largest golden PTX file and reports lines/s.
func BenchmarkParse(b *testing.B) {
	var src []byte
	for _, path := range goldenPTX(b) {
		s, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		if len(s) > len(src) {
			src = s
		}
	}
	lines := bytes.Count(src, []byte("\n"))
	b.SetBytes(int64(len(src)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Parse("bench.ptx", src); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(lines)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
}
