package chart

import (
	"bytes"
	"flag"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"

	"github.com/kernelscope/kernelscope/gpu/arch"
	"github.com/kernelscope/kernelscope/gpu/occupancy"
)

var regen = flag.Bool("regen", false, "rewrite the golden charts in testdata/")

// fontData matches the base64 font embedded in an SVG.
var fontData = regexp.MustCompile(`base64,[A-Za-z0-9+/=]+`)

// stripFont replaces embedded font data by its length, keeping golden SVGs small.
func stripFont(svg []byte) []byte {
	return fontData.ReplaceAllFunc(svg, func(m []byte) []byte {
		return []byte("base64,<" + strconv.Itoa(len(m)-len("base64,")) + " bytes>")
	})
}

func charts(t *testing.T, name string, in occupancy.Input) []Chart {
	t.Helper()
	s, err := arch.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := OccupancyCharts(s, in)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// TestGoldenCharts compares the charts with testdata/: SVG exactly (font data
// stripped), PNG pixel by pixel with a small tolerance for rasteriser rounding.
func TestGoldenCharts(t *testing.T) {
	cs := charts(t, "sm_90", occupancy.Input{BlockSize: 256, RegsPerThread: 40, StaticShared: 4096})
	if len(cs) != 3 {
		t.Fatalf("%d charts", len(cs))
	}
	for _, c := range cs {
		svgPath := filepath.Join("testdata", c.ID+".svg")
		pngPath := filepath.Join("testdata", c.ID+".png")
		if *regen {
			if err := os.WriteFile(svgPath, stripFont(c.SVG), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(pngPath, c.PNG, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(svgPath)
		if err != nil {
			t.Fatalf("%v (run go test -regen)", err)
		}
		if got := stripFont(c.SVG); !bytes.Equal(got, want) {
			t.Errorf("%s: SVG differs from %s (%d vs %d bytes); inspect and rerun with -regen if intended", c.ID, svgPath, len(got), len(want))
		}
		wantPNG, err := os.ReadFile(pngPath)
		if err != nil {
			t.Fatal(err)
		}
		comparePNG(t, c.ID, c.PNG, wantPNG)
	}
}

func decode(t *testing.T, b []byte) image.Image {
	t.Helper()
	im, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("decode png: %v", err)
	}
	return im
}

func comparePNG(t *testing.T, id string, got, want []byte) {
	t.Helper()
	g, w := decode(t, got), decode(t, want)
	if g.Bounds() != w.Bounds() {
		t.Errorf("%s: PNG %v, golden %v", id, g.Bounds(), w.Bounds())
		return
	}
	diff, total := 0, 0
	b := g.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			total++
			r1, g1, b1, a1 := g.At(x, y).RGBA()
			r2, g2, b2, a2 := w.At(x, y).RGBA()
			if far(r1, r2) || far(g1, g2) || far(b1, b2) || far(a1, a2) {
				diff++
			}
		}
	}
	if float64(diff) > 0.002*float64(total) {
		t.Errorf("%s: %d of %d pixels differ from the golden PNG", id, diff, total)
	}
}

func far(a, b uint32) bool { return math.Abs(float64(a)-float64(b)) > 0x0c00 }

func TestChartStructure(t *testing.T) {
	in := occupancy.Input{BlockSize: 128, RegsPerThread: 32, DynamicShared: 16 * 1024}
	for _, name := range arch.Names() {
		cs := charts(t, name, in)
		ids := []string{}
		for _, c := range cs {
			ids = append(ids, c.ID)
			svg := string(c.SVG)
			if !strings.Contains(svg, "@font-face") || !strings.Contains(svg, "base64,") {
				t.Errorf("%s %s: fonts not embedded", name, c.ID)
			}
			if !strings.Contains(svg, "<svg") || !strings.HasSuffix(strings.TrimSpace(svg), "</svg>") {
				t.Errorf("%s %s: not a complete SVG", name, c.ID)
			}
			if strings.Contains(svg, "NaN") || strings.Contains(svg, "Inf") {
				t.Errorf("%s %s: non-finite coordinates in SVG", name, c.ID)
			}
			// The title, the arch and the current configuration are visible as text
			// (embedded-font SVG keeps text as <text> elements).
			for _, s := range []string{name, "current:", "occupancy (%)"} {
				if !strings.Contains(svg, s) {
					t.Errorf("%s %s: SVG lacks %q", name, c.ID, s)
				}
			}
			im := decode(t, c.PNG)
			if im.Bounds().Dx() != 720 || im.Bounds().Dy() != 468 {
				t.Errorf("%s %s: PNG %v", name, c.ID, im.Bounds())
			}
			// Transparent background: the corner pixel is fully transparent.
			if _, _, _, a := im.At(1, 1).RGBA(); a != 0 {
				t.Errorf("%s %s: background not transparent", name, c.ID)
			}
		}
		if strings.Join(ids, ",") != "occupancy_block_size,occupancy_registers,occupancy_shared" {
			t.Errorf("%s: charts %v", name, ids)
		}
	}
}

func TestDeterministic(t *testing.T) {
	in := occupancy.Input{BlockSize: 512, RegsPerThread: 64}
	a, b := charts(t, "sm_80", in), charts(t, "sm_80", in)
	for i := range a {
		if !bytes.Equal(a[i].SVG, b[i].SVG) || !bytes.Equal(a[i].PNG, b[i].PNG) {
			t.Errorf("%s: two renderings differ", a[i].ID)
		}
	}
}

func TestErrorsAndCleaning(t *testing.T) {
	if _, err := OccupancyCharts(nil, occupancy.Input{BlockSize: 32}); err == nil {
		t.Error("nil spec accepted")
	}
	s, _ := arch.Lookup("sm_90")
	if _, err := OccupancyCharts(s, occupancy.Input{BlockSize: 0}); err == nil {
		t.Error("block size 0 accepted")
	}
	// A configuration that cannot launch still draws (0 % marked).
	if cs, err := OccupancyCharts(s, occupancy.Input{BlockSize: 1024, RegsPerThread: 255}); err != nil || len(cs) != 3 {
		t.Errorf("unlaunchable config: %v", err)
	}
	got := clean(plotter.XYs{{X: 1, Y: 2}, {X: math.NaN(), Y: 1}, {X: 3, Y: math.Inf(1)}, {X: 4, Y: 5}})
	if len(got) != 2 || got[1].X != 4 {
		t.Errorf("clean: %v", got)
	}
}

// TestTimelineDownsample: a row keeps the dominant state of each slice and merges equal neighbours.
func TestTimelineDownsample(t *testing.T) {
	var ivs []Interval
	for c := int64(0); c < 24000; c += 2 {
		st := "selected"
		if c%10 == 0 {
			st = "wait" // 2 of every 10 cycles
		}
		ivs = append(ivs, Interval{Start: c, End: c + 2, State: st})
	}
	ivs = append(ivs, Interval{Start: 24000, End: 48000, State: "barrier"})
	r := downsample(TimelineRow{Label: "w", Intervals: ivs}, 48000)
	if len(r.Intervals) != 2 || r.Intervals[0].State != "selected" || r.Intervals[1].State != "barrier" ||
		r.Intervals[0].Start != 0 || r.Intervals[1].End != 48000 || r.Intervals[0].End != r.Intervals[1].Start {
		t.Fatalf("downsampled to %+v", r.Intervals)
	}
}
