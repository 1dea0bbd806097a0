package kernelspec

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"strings"
	"testing"
)

// The logo: a warp of 32 lanes as four rows of eight bars, one row per step of a
// divergent branch: all lanes, the if-side (lanes 0-3 of each octet), the else-side,
// then all lanes again after reconvergence. Run `go test -run TestLogos -regen` to
// redraw logo-32x32.png, logo-64x64.png and logo-svg.svg from this code.

func TestMain(m *testing.M) {
	flag.Bool("regen", false, "rewrite the logo files from the drawing code")
	flag.Parse()
	os.Exit(m.Run())
}

// shape is a rounded rectangle in the 64-unit logo space.
type shape struct {
	x, y, w, h, r float64
	c             color.NRGBA
}

// logoShapes returns the background and the 32 lanes.
func logoShapes() []shape {
	bg := color.NRGBA{0x14, 0x20, 0x2e, 0xff}
	on := color.NRGBA{0x76, 0xb9, 0x00, 0xff}
	off := color.NRGBA{0x3a, 0x4a, 0x5c, 0xff}
	s := []shape{{0, 0, 64, 64, 12, bg}}
	const cw, ch, gx, gy = 5.5, 10.0, 1.5, 2.0
	x0 := (64 - (8*cw + 7*gx)) / 2
	y0 := (64 - (4*ch + 3*gy)) / 2
	for row := 0; row < 4; row++ {
		for col := 0; col < 8; col++ {
			active := row == 0 || row == 3 || (row == 1) == (col < 4)
			c := off
			if active {
				c = on
			}
			s = append(s, shape{x0 + float64(col)*(cw+gx), y0 + float64(row)*(ch+gy), cw, ch, 1.2, c})
		}
	}
	return s
}

// inside reports whether (px, py) lies in the rounded rectangle.
func (s shape) inside(px, py float64) bool {
	if px < s.x || py < s.y || px >= s.x+s.w || py >= s.y+s.h {
		return false
	}
	cx := min(max(px, s.x+s.r), s.x+s.w-s.r)
	cy := min(max(py, s.y+s.r), s.y+s.h-s.r)
	dx, dy := px-cx, py-cy
	return dx*dx+dy*dy <= s.r*s.r
}

// raster draws the shapes at size x size pixels with 4x4 supersampling.
func raster(shapes []shape, size int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	const ss = 4
	scale := 64 / float64(size)
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			var r, g, b, a float64
			for sy := 0; sy < ss; sy++ {
				for sx := 0; sx < ss; sx++ {
					px := (float64(x) + (float64(sx)+0.5)/ss) * scale
					py := (float64(y) + (float64(sy)+0.5)/ss) * scale
					for i := len(shapes) - 1; i >= 0; i-- {
						if shapes[i].inside(px, py) {
							c := shapes[i].c
							r, g, b, a = r+float64(c.R), g+float64(c.G), b+float64(c.B), a+255
							break
						}
					}
				}
			}
			if a == 0 {
				continue
			}
			// Premultiplied sums to straight alpha.
			n := a / 255
			img.SetNRGBA(x, y, color.NRGBA{uint8(r/n + 0.5), uint8(g/n + 0.5), uint8(b/n + 0.5), uint8(a/(ss*ss) + 0.5)})
		}
	}
	return img
}

// svg renders the shapes as a 64x64 SVG document.
func svg(shapes []shape) string {
	var sb strings.Builder
	sb.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">` + "\n")
	sb.WriteString("<title>KernelScope: a warp of 32 lanes through a divergent branch</title>\n")
	for _, s := range shapes {
		fmt.Fprintf(&sb, `<rect x="%g" y="%g" width="%g" height="%g" rx="%g" fill="#%02x%02x%02x"/>`+"\n",
			s.x, s.y, s.w, s.h, s.r, s.c.R, s.c.G, s.c.B)
	}
	sb.WriteString("</svg>\n")
	return sb.String()
}

func TestLogos(t *testing.T) {
	shapes := logoShapes()
	want := map[string][]byte{"logo-svg.svg": []byte(svg(shapes))}
	for _, size := range []int{32, 64} {
		var buf bytes.Buffer
		if err := png.Encode(&buf, raster(shapes, size)); err != nil {
			t.Fatal(err)
		}
		want[fmt.Sprintf("logo-%dx%d.png", size, size)] = buf.Bytes()
	}
	if flag.Lookup("regen").Value.String() == "true" {
		for name, b := range want {
			if err := os.WriteFile(name, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		t.Skip("logos regenerated; rebuild to embed them")
	}
	for name, w := range want {
		got, err := ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(name, ".png") {
			gi, err := png.Decode(bytes.NewReader(got))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			wi, _ := png.Decode(bytes.NewReader(w))
			if !samePixels(gi, wi) {
				t.Errorf("%s differs from the drawing code; run go test -run TestLogos -regen", name)
			}
			continue
		}
		if !bytes.Equal(got, w) {
			t.Errorf("%s differs from the drawing code; run go test -run TestLogos -regen", name)
		}
	}
}

// samePixels compares two images pixel by pixel.
func samePixels(a, b image.Image) bool {
	if a.Bounds() != b.Bounds() {
		return false
	}
	for y := a.Bounds().Min.Y; y < a.Bounds().Max.Y; y++ {
		for x := a.Bounds().Min.X; x < a.Bounds().Max.X; x++ {
			r1, g1, b1, a1 := a.At(x, y).RGBA()
			r2, g2, b2, a2 := b.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				return false
			}
		}
	}
	return true
}
