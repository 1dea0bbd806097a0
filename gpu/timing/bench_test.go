package timing

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkReplayStreaming replays a memory-bound grid of 8-warp blocks of
// 20 instructions on 132 SMs; reports wall and CPU ns per warp-instruction.
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
	cpu0 := processCPU()
	var issued int64
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
		issued += r.Issued
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(issued), "ns/inst")
	if cpu := processCPU() - cpu0; cpu > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(issued), "cpu-ns/inst")
	}
}

// BenchmarkReplayTail replays a launch whose last wave occupies few SMs:
// 140 blocks of 4 warps with a long dependent chain, one block per SM on
// 132 SMs, so the second wave runs 8 blocks while 124 SMs idle (the case
// an event queue skips and a walk over every sub-partition does not);
// reports wall and CPU ns per warp-instruction.
func BenchmarkReplayTail(b *testing.B) {
	body := []string{"ld.param.u64 %rd1, [pp];"}
	for i := 0; i < 64; i++ {
		body = append(body, "ld.global.f32 %f1, [%rd1];", "add.f32 %f2, %f1, %f2;")
	}
	body = append(body, "st.global.f32 [%rd1], %f2;")
	p := kernel(b, "sm_90", body...)
	s := linear(p, MemL2Hit, 1)
	blk := []WarpStream{s, s, s, s}
	b.ResetTimer()
	cpu0 := processCPU()
	var issued int64
	for i := 0; i < b.N; i++ {
		m, err := New(p, Config{BlocksPerSM: 1})
		if err != nil {
			b.Fatal(err)
		}
		for j := 0; j < 140; j++ {
			if err := m.AddBlock(context.Background(), blk); err != nil {
				b.Fatal(err)
			}
		}
		r, err := m.Finish(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		issued += r.Issued
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(issued), "ns/inst")
	if cpu := processCPU() - cpu0; cpu > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(issued), "cpu-ns/inst")
	}
}
