package sim

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/arith"
	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// The PTX video instructions (gpu/arith/video.go) against the H200:
// testdata/video, one kernel per family whose every line is one variant
// (testdata/video/gen.py), compiled by CUDA 13.0's ptxas and run on 512 input
// triples (README there). Lines ptxas rejected were dropped there (h200/F.dropped)
// and must be rejected by the decoder too; lines the decoder rejects as not
// implemented must be exactly the documented forms (vshl.sat; vmad with .sat,
// .shr7 or .shr15); every other variant must give the H200's bytes.

const videoDir = "../../testdata/video/"

var videoFamilies = []string{"scalar", "shift", "vmad", "vset", "simd2", "simd4"}

// notModelled is the documented set of video forms Decode rejects.
var notModelled = regexp.MustCompile(`^(vshl\.\S*\.sat\b|vmad\.\S*\.(sat|shr7|shr15)\b)`)

// videoSets are the recorded runs: set h200 calibrated the scalar rules; set
// v2/h200 (the same kernels on new inputs) was recorded after (validation).
var videoSets = []struct{ in, out string }{{"in.bin", "h200/"}, {"v2/in.bin", "v2/h200/"}}

func TestVideoH200(t *testing.T) {
	for _, set := range videoSets {
		if !fileExists(videoDir+set.in) && set.in != "in.bin" {
			t.Logf("%s: not recorded", set.in)
			continue
		}
		in := readFileT(t, videoDir+set.in)
		n := len(in) / 12
		for _, fam := range videoFamilies {
			t.Run(set.out+fam, func(t *testing.T) { videoFamily(t, fam, in, n, set.out) })
		}
	}
}

func videoFamily(t *testing.T, fam string, in []byte, n int, out string) {
	src := string(readFileT(t, videoDir+"video_"+fam+".ptx"))
	want := gunzipFile(t, videoDir+out+"v_"+fam+".bin.gz")
	lines := strings.Split(src, "\n")
	tag := map[string]int{} // "V12" -> line index
	for i, l := range lines {
		if k := strings.LastIndex(l, "// V"); k >= 0 {
			tag[l[k+3:]] = i
		}
	}
	nv := len(tag)
	if len(want) != nv*n*4 {
		t.Fatalf("%d bytes recorded, want %d", len(want), nv*n*4)
	}
	skip := map[int]string{}
	for _, l := range strings.Split(string(readFileT(t, videoDir+out+fam+".dropped")), "\n") {
		if !strings.HasPrefix(l, "dropped V") {
			continue
		}
		f := strings.Fields(l)
		i, ok := tag[f[1]]
		if !ok {
			t.Fatalf("dropped %s: no such variant", f[1])
		}
		skip[i] = "ptxas"
	}
	// Decode every variant: rejected ones must be ptxas's or the documented forms.
	m, err := ptx.Parse("video_"+fam+".ptx", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	decoded := 0
	for _, in := range m.Funcs[0].Insts {
		if !arith.IsVideo(in.Op) {
			continue
		}
		li := int(in.Pos.Line) - 1
		text := strings.TrimSpace(lines[li])
		_, err := arith.Decode(in)
		switch {
		case skip[li] == "ptxas" && err == nil:
			t.Errorf("ptxas rejects %q, the decoder accepts it", text)
		case skip[li] == "ptxas":
		case err != nil && notModelled.MatchString(text):
			skip[li] = "not modelled"
		case err != nil:
			t.Errorf("%q: %v", text, err)
			skip[li] = "error"
		default:
			decoded++
		}
	}
	for i := range skip {
		lines[i] = ""
	}
	m, err = ptx.Parse("video_"+fam+".ptx", []byte(strings.Join(lines, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Launch(context.Background(), m, "v_"+fam, []Arg{{Buffer: make([]byte, len(want))}, {Buffer: in}},
		Config{Grid: [3]int{n / 128}, Block: [3]int{128}})
	if err != nil {
		t.Fatal(err)
	}
	got := res.Buffers[0]
	bad, checked := 0, 0
	for v := 0; v < nv; v++ {
		li := tag[fmt.Sprintf("V%d", v)]
		if skip[li] != "" {
			continue
		}
		checked++
		g, w := got[v*n*4:(v+1)*n*4], []byte(want[v*n*4:(v+1)*n*4])
		if bytes.Equal(g, w) {
			continue
		}
		bad++
		for i := 0; i < n; i++ {
			if !bytes.Equal(g[4*i:4*i+4], w[4*i:4*i+4]) {
				if bad <= 10 {
					t.Errorf("%s: thread %d (a b c = % x): %x, H200 %x", strings.TrimSpace(lines[li]), i, in[12*i:12*i+12], g[4*i:4*i+4], w[4*i:4*i+4])
				}
				break
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d variants differ from the H200", bad, checked)
	}
	t.Logf("%d variants bit-exact on %d inputs; %d not run (%d rejected by ptxas, the rest not modelled)", checked-bad, n, len(skip), countVal(skip, "ptxas"))
	if checked != decoded {
		t.Errorf("%d variants checked, %d decoded", checked, decoded)
	}
}

func countVal(m map[int]string, v string) int {
	n := 0
	for _, x := range m {
		if x == v {
			n++
		}
	}
	return n
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
