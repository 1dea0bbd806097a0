package analysis_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/analysis"
	"github.com/kernelscope/kernelscope/magics"
)

// TestWarpSynchronousVolatileWarns: warpsync.cu's ws_volatile (the classic volatile
// warp-synchronous reduction tail, no __syncwarp) gives race findings that are all
// warnings, naming __syncwarp() as the fix, on every line compute-sanitizer's racecheck
// named on the H200 (h200/racecheck_volatile.txt: 5 "Warp Level Programming" warnings,
// 0 errors); ws_syncwarp, the same reduction with __syncwarp() between reads and
// writes, gives none, as on the H200. Both give the H200's sums, on both paths.
func TestWarpSynchronousVolatileWarns(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(featDir, "h200", "racecheck_volatile.txt"))
	if err != nil {
		t.Fatal(err)
	}
	csLines := map[int]bool{}
	for _, m := range regexp.MustCompile(`warpsync\.cu:(\d+)`).FindAllStringSubmatch(string(raw), -1) {
		n, _ := strconv.Atoi(m[1])
		csLines[n] = true
	}
	if !strings.Contains(string(raw), "(0 errors, 5 warnings)") || len(csLines) == 0 {
		t.Fatalf("racecheck_volatile.txt is not the recorded run:\n%s", raw)
	}
	clean, err := os.ReadFile(filepath.Join(featDir, "h200", "racecheck_syncwarp.txt"))
	if err != nil || !strings.Contains(string(clean), "0 hazards displayed (0 errors, 0 warnings)") {
		t.Fatalf("racecheck_syncwarp.txt is not the recorded clean run: %v\n%s", err, clean)
	}
	checks, err := analysis.ParseChecks("all")
	if err != nil {
		t.Fatal(err)
	}
	in := make([]byte, 4096)
	for i := 0; i < 1024; i++ {
		v := uint32(i * 7 % 1000)
		in[4*i], in[4*i+1], in[4*i+2], in[4*i+3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "in.bin"), in, 0o600); err != nil {
		t.Fatal(err)
	}
	for path, base := range featPaths(t, "warpsync") {
		for _, k := range []string{"volatile", "syncwarp"} {
			req := base
			req.Checks = checks
			spec, err := magics.ParseLaunch(`ws_` + k + `<<<4, 256>>>(in=file("` + filepath.Join(dir, "in.bin") + `"):i32, out=zeros(4):i32)`)
			if err != nil {
				t.Fatal(err)
			}
			req.Launch = spec
			rep, err := analysis.Run(context.Background(), req)
			if err != nil {
				t.Fatalf("%s/%s: %v", path, k, err)
			}
			want, err := os.ReadFile(filepath.Join(featDir, "h200", "out", "ws_"+k+".out.out.bin"))
			if err != nil {
				t.Fatal(err)
			}
			if o := output(rep, "out"); o == nil || !bytes.Equal(o.Bytes, want) {
				t.Errorf("%s/%s: the sums are not the H200's", path, k)
			}
			if k == "syncwarp" {
				for _, f := range rep.Sanitizer {
					t.Errorf("%s/%s: %s (%s): %s", path, k, f.Kind, f.Severity, f.Message)
				}
				continue
			}
			if len(rep.Sanitizer) == 0 {
				t.Errorf("%s/%s: no finding; compute-sanitizer warns of Warp Level Programming hazards", path, k)
			}
			lines := map[int]bool{}
			for _, f := range rep.Sanitizer {
				if f.Kind != "race" || f.Severity != "warning" || f.Space != "shared" || !strings.Contains(f.Message, "__syncwarp()") {
					t.Errorf("%s/%s: want a shared race warning naming __syncwarp(), got %s/%s/%s: %s", path, k, f.Kind, f.Severity, f.Space, f.Message)
				}
				lines[f.CUDALine], lines[f.OtherCUDALine] = true, true
			}
			for l := range csLines {
				if !lines[l] {
					t.Errorf("%s/%s: compute-sanitizer names warpsync.cu:%d, KernelScope's findings do not (they name %v)", path, k, l, lines)
				}
			}
		}
	}
}
