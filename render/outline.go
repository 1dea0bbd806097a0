package render

import (
	"fmt"
	"html"
	"regexp"
	"strconv"
	"strings"

	"codeberg.org/go-fonts/liberation/liberationsansregular"
	"golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// svgTextRE matches the <text> elements gonum's SVG canvas writes.
var svgTextRE = regexp.MustCompile(`(?s)<text x="([-+0-9.eE]+)" y="([-+0-9.eE]+)"( transform="[^"]*")?\s*style="([^"]*)">(.*?)</text>`)

var fontSizeRE = regexp.MustCompile(`font-size:([0-9.]+)px`)
var fillRE = regexp.MustCompile(`fill:(#[0-9A-Fa-f]+|[a-z]+)`)

// glyphPPEM is the size glyph outlines are defined at; uses scale them.
const glyphPPEM = 64

// outlineText replaces every <text> of a chart by the outlines of its glyphs
// (Liberation Sans, the face the chart was laid out with), so the inline SVG
// looks the same everywhere without carrying a 560 KB font. Each glyph is
// defined once (ids start with idPrefix, which must be unique on the page) and
// placed with <use>.
func outlineText(svg, idPrefix string) (string, error) {
	f, err := sfnt.Parse(liberationsansregular.TTF)
	if err != nil {
		return "", fmt.Errorf("chart font: %w", err)
	}
	var buf sfnt.Buffer
	var failure error
	defs := map[sfnt.GlyphIndex]string{}
	var defsOut strings.Builder
	num := func(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }
	define := func(idx sfnt.GlyphIndex) (string, error) {
		if id, ok := defs[idx]; ok {
			return id, nil
		}
		segs, err := f.LoadGlyph(&buf, idx, fixed.I(glyphPPEM), nil)
		if err != nil {
			return "", err
		}
		id := fmt.Sprintf("%s-g%d", idPrefix, idx)
		defs[idx] = id
		var d strings.Builder
		pt := func(p fixed.Point26_6) string { return num(float64(p.X)/64) + "," + num(float64(p.Y)/64) }
		for _, s := range segs {
			switch s.Op {
			case sfnt.SegmentOpMoveTo:
				d.WriteString("M" + pt(s.Args[0]))
			case sfnt.SegmentOpLineTo:
				d.WriteString("L" + pt(s.Args[0]))
			case sfnt.SegmentOpQuadTo:
				d.WriteString("Q" + pt(s.Args[0]) + " " + pt(s.Args[1]))
			case sfnt.SegmentOpCubeTo:
				d.WriteString("C" + pt(s.Args[0]) + " " + pt(s.Args[1]) + " " + pt(s.Args[2]))
			}
		}
		fmt.Fprintf(&defsOut, `<path id="%s" d="%sZ"/>`, id, d.String())
		return id, nil
	}
	out := svgTextRE.ReplaceAllStringFunc(svg, func(m string) string {
		g := svgTextRE.FindStringSubmatch(m)
		x, err1 := strconv.ParseFloat(g[1], 64)
		y, err2 := strconv.ParseFloat(g[2], 64)
		sz := fontSizeRE.FindStringSubmatch(g[4])
		if err1 != nil || err2 != nil || sz == nil {
			return m
		}
		size, err := strconv.ParseFloat(sz[1], 64)
		if err != nil || size <= 0 {
			return m
		}
		fill := "#000"
		if c := fillRE.FindStringSubmatch(g[4]); c != nil {
			fill = c[1]
		}
		ppem := fixed.Int26_6(size * 64)
		scale := strconv.FormatFloat(size/glyphPPEM, 'g', 5, 64)
		var uses strings.Builder
		pen := x
		prev := sfnt.GlyphIndex(0)
		for _, r := range html.UnescapeString(g[5]) {
			idx, err := f.GlyphIndex(&buf, r)
			if err != nil || idx == 0 {
				idx, _ = f.GlyphIndex(&buf, '?')
			}
			if prev != 0 {
				if k, err := f.Kern(&buf, prev, idx, ppem, font.HintingNone); err == nil {
					pen += float64(k) / 64
				}
			}
			if r != ' ' {
				id, err := define(idx)
				if err != nil {
					failure = fmt.Errorf("chart font: glyph %q: %w", r, err)
					return m
				}
				fmt.Fprintf(&uses, `<use href="#%s" transform="translate(%s,%s) scale(%s)"/>`, id, num(pen), num(y), scale)
			}
			if adv, err := f.GlyphAdvance(&buf, idx, ppem, font.HintingNone); err == nil {
				pen += float64(adv) / 64
			}
			prev = idx
		}
		return fmt.Sprintf(`<g%s style="fill:%s"><title>%s</title>%s</g>`, g[3], fill, g[5], uses.String())
	})
	if failure != nil {
		return "", failure
	}
	if i := strings.Index(out, ">"); i > 0 && defsOut.Len() > 0 {
		out = out[:i+1] + "<defs>" + defsOut.String() + "</defs>" + out[i+1:]
	}
	return out, nil
}
