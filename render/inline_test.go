package render

import (
	"regexp"
	"strings"
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

// TestChartsOnlyWhereTheySaySomething: at 100% occupancy the bundle draws no
// occupancy chart unless %show occupancy asked; under 100% it does; the
// timing charts come with %show timeline. No image rides in the bundle itself.
func TestChartsOnlyWhereTheySaySomething(t *testing.T) {
	rep := goldenReport(t, "vector_add")
	if rep.Occupancy == nil || rep.Occupancy.OccupancyPct != 100 {
		t.Fatalf("vector_add should run at 100%% occupancy: %+v", rep.Occupancy)
	}
	count := func(opt Options) int {
		b, err := Bundle(rep, opt)
		if err != nil {
			t.Fatal(err)
		}
		if b[MIMEPNG] != nil {
			t.Error("a PNG in the bundle")
		}
		return strings.Count(b[MIMEHTML].(string), "<svg")
	}
	if n := count(Options{}); n != 0 {
		t.Errorf("100%% occupancy, default sections: %d charts, want 0", n)
	}
	if n := count(Options{Requested: map[string]bool{"occupancy": true}}); n != 3 {
		t.Errorf("%%show occupancy: %d charts, want the 3 occupancy charts", n)
	}
	if rep.Timing != nil {
		if n := count(Options{Requested: map[string]bool{"timeline": true}}); n != 2 {
			t.Errorf("%%show timeline: %d charts, want warp states and timeline", n)
		}
	}
	rep.Occupancy.OccupancyPct = 50
	if n := count(Options{}); n != 3 {
		t.Errorf("50%% occupancy: %d charts, want 3", n)
	}
	// The bundle's HTML is HTML with the charts Charts draws.
	b, err := Bundle(rep, Options{ID: "ksT"})
	if err != nil {
		t.Fatal(err)
	}
	want, err := HTML(rep, Charts(rep), Options{ID: "ksT"})
	if err != nil {
		t.Fatal(err)
	}
	if b[MIMEHTML] != want {
		t.Error("bundle HTML differs from HTML with every chart drawn")
	}
}
