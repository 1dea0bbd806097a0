package render

import (
	"bytes"
	"regexp"
	"testing"
)

// refFontFaceRE is the regexp inlineSVG used before stripFontFaces, kept as its reference.
var refFontFaceRE = regexp.MustCompile(`(?s)<style>\s*@font-face\{.*?</style>`)

// TestStripFontFacesMatchesRegexp checks stripFontFaces against the regexp it
// replaced, on the charts of a golden report and on hand-made edge cases.
func TestStripFontFacesMatchesRegexp(t *testing.T) {
	cases := []string{
		"", "<svg></svg>", "<style>", "<style>@font-face{x}", "<style> \n@font-face{a}</style><g/>",
		"<style>.a{}</style><style>@font-face{b}</style>x", "<style>@font-face{a}</style><style>\t@font-face{b}</style>",
		"a<style>@font-face </style>b", "<style><style>@font-face{c}</style></style>", "x<style>\v@font-face{v}</style>",
	}
	rep := goldenReport(t, "matmul_tiled")
	for _, c := range Charts(rep) {
		cases = append(cases, string(c.SVG))
	}
	for i, s := range cases {
		if got, want := stripFontFaces(s), refFontFaceRE.ReplaceAllString(s, ""); got != want {
			t.Errorf("case %d (%d bytes): %d bytes, the regexp gives %d", i, len(s), len(got), len(want))
		}
	}
}

// TestBundleShipsTheFirstChartsPNG checks that Bundle, which encodes one PNG
// only, ships the image Charts draws first, and the same HTML charts.
func TestBundleShipsTheFirstChartsPNG(t *testing.T) {
	rep := goldenReport(t, "vector_add")
	charts := Charts(rep)
	if len(charts) == 0 || len(charts[0].PNG) == 0 {
		t.Fatal("no charts")
	}
	b, err := Bundle(rep, Options{ID: "ksT"})
	if err != nil {
		t.Fatal(err)
	}
	png, _ := b[MIMEPNG].([]byte)
	if !bytes.Equal(png, charts[0].PNG) {
		t.Errorf("bundle PNG (%d bytes) is not the first chart's (%d bytes)", len(png), len(charts[0].PNG))
	}
	want, err := HTML(rep, charts, Options{ID: "ksT"})
	if err != nil {
		t.Fatal(err)
	}
	if b[MIMEHTML] != want {
		t.Error("bundle HTML differs from HTML with every chart encoded")
	}
}
