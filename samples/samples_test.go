package samples

import (
	"bytes"
	"context"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kernelscope/kernelscope/gpu/toolchain"
)

// TestPTXIsCurrent recompiles every sample and compares with the committed PTX.
// It skips when no clang is installed, unless CI=true, where it fails.
func TestPTXIsCurrent(t *testing.T) {
	clang := ""
	for _, c := range toolchain.Available() {
		if strings.HasPrefix(c, "clang") {
			clang = c
			break
		}
	}
	if clang == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI=true but no clang on PATH: cannot check the bundled PTX")
		}
		t.Skip("no clang on PATH")
	}
	for _, s := range List() {
		res, err := toolchain.Compile(context.Background(), toolchain.Request{
			Source: s.CUDA, File: s.Name + ".cu", Arch: Arch, Compiler: "clang", Timeout: time.Minute,
		})
		if err != nil {
			t.Errorf("%s: %v", s.Name, err)
			continue
		}
		if !bytes.Equal(res.PTX, s.PTX) {
			t.Errorf("%s: committed PTX differs from what %s produces now: run `go generate ./samples`", s.Name, res.Compiler)
		}
	}
}

var kernelRE = regexp.MustCompile(`__global__\s+void\s+([A-Za-z_][A-Za-z0-9_]*)\s*\(([^)]*)\)`)
var launchRE = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)\((.*)\)$`)

func TestSamplesAreConsistent(t *testing.T) {
	list := List()
	if len(list) < 6 {
		t.Fatalf("only %d samples", len(list))
	}
	for i, s := range list {
		if i > 0 && list[i-1].Name >= s.Name {
			t.Errorf("List not sorted at %s", s.Name)
		}
		g, ok := Get(s.Name)
		if !ok || g.Name != s.Name || g.CUDA != s.CUDA {
			t.Errorf("Get(%q) = %v", s.Name, ok)
		}
		if s.Title == "" || s.Description == "" || s.CUDA == "" || len(s.PTX) == 0 {
			t.Errorf("%s: empty field", s.Name)
		}
		m := kernelRE.FindStringSubmatch(s.CUDA)
		if m == nil || m[1] != s.Name {
			t.Errorf("%s: first kernel is %v", s.Name, m)
			continue
		}
		if !strings.Contains(string(s.PTX), ".entry "+s.Name+"(") || !strings.Contains(string(s.PTX), ".target "+Arch) {
			t.Errorf("%s: PTX lacks .entry %s or .target %s", s.Name, s.Name, Arch)
		}
		if strings.Contains(string(s.PTX), ".extern") {
			t.Errorf("%s: PTX has an extern declaration", s.Name)
		}
		// The %launch names the kernel and each of its parameters, in order.
		lm := launchRE.FindStringSubmatch(s.Launch)
		if lm == nil || lm[1] != s.Name {
			t.Errorf("%s: launch %q does not name the kernel", s.Name, s.Launch)
			continue
		}
		var params []string
		for _, p := range strings.Split(m[2], ",") {
			f := strings.Fields(strings.NewReplacer("*", " ").Replace(p))
			params = append(params, f[len(f)-1])
		}
		var args []string
		for _, a := range regexp.MustCompile(`([A-Za-z_][A-Za-z0-9_]*)=`).FindAllStringSubmatch(lm[2], -1) {
			args = append(args, a[1])
		}
		if strings.Join(params, ",") != strings.Join(args, ",") {
			t.Errorf("%s: launch arguments %v, kernel parameters %v", s.Name, args, params)
		}
		threads := s.Block[0] * s.Block[1] * s.Block[2]
		if threads < 32 || threads > 1024 || s.Grid[0]*s.Grid[1]*s.Grid[2] < 1 {
			t.Errorf("%s: grid %v block %v", s.Name, s.Grid, s.Block)
		}
	}
	if _, ok := Get("no_such_sample"); ok {
		t.Error("Get of an unknown name succeeded")
	}
}
