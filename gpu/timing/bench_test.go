package timing

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkReplayStreaming replays a memory-bound grid of 8-warp blocks of
// 20 instructions on 132 SMs; reports ns per warp-instruction.
func BenchmarkReplayStreaming(b *testing.B) {
	body := []string{"ld.param.u64 %rd1, [pp];", "ld.global.f32 %f1, [%rd1];", "ld.global.f32 %f2, [%rd1];"}
	for i := 0; i < 16; i++ {
		body = append(body, fmt.Sprintf("add.f32 %%f%d, %%f1, %%f2;", 3+i%8))
	}
	body = append(body, "st.global.f32 [%rd1], %f3;")
	p := kernel(b, "sm_90", body...)
	s := linear(p, MemDRAM, 4)
	blk := []WarpStream{s, s, s, s, s, s, s, s}
	const blocks = 4096
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m, err := New(p, Config{BlocksPerSM: 8})
		if err != nil {
			b.Fatal(err)
		}
		for j := 0; j < blocks; j++ {
			if err := m.AddBlock(context.Background(), blk); err != nil {
				b.Fatal(err)
			}
		}
		r, err := m.Finish(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(int64(i+1)*r.Issued), "ns/inst")
	}
}
