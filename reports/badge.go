package reports

import (
	"encoding/xml"
	"fmt"
	"strings"
)

// Badge colours by score, the scale shields.io users already read.
const (
	badgeGrey        = "#9f9f9f"
	badgeBrightGreen = "#4c1"
	badgeGreen       = "#97ca00"
	badgeYellowGreen = "#a4a61d"
	badgeYellow      = "#dfb317"
	badgeOrange      = "#fe7d37"
	badgeRed         = "#e05d44"
)

// badgeFor renders "A2A v<protocol> | <passed>/<denominator>" (the label
// ends "self-reported" for such a column) coloured by the
// share passed: 100% bright green, ≥90% green, ≥75% yellow-green, ≥50%
// yellow, ≥25% orange, below red; grey for an unreachable target, an empty
// run, or a partial one (filtered, interrupted or missing declared specs),
// whose message then says "partial".
func badgeFor(v ScorecardVendor) string {
	label := "A2A"
	if p := strings.TrimSpace(v.ProtocolVersion); p != "" {
		label += " v" + cutUTF8(p, 12)
	}
	if v.Attestation.Status == AttestSelfReported {
		// The badge travels without the page: it says so itself.
		label += " self-reported"
	}
	msg := fmt.Sprintf("%d/%d", v.Score.Passed, v.Score.Denominator)
	colour := badgeColour(v.Score)
	switch {
	case v.Unreachable:
		msg, colour = "unreachable", badgeGrey
	case v.Score.Denominator == 0:
		msg, colour = "no specs", badgeGrey
	case len(v.Partial) > 0:
		// A filtered or interrupted run never wears a full badge.
		msg, colour = "partial "+msg, badgeGrey
	}
	return badgeSVG(label, msg, colour)
}

func badgeColour(s Score) string {
	if s.Denominator == 0 {
		return badgeGrey
	}
	p := float64(s.Passed) / float64(s.Denominator)
	switch {
	case s.Passed == s.Denominator:
		return badgeBrightGreen
	case p >= 0.90:
		return badgeGreen
	case p >= 0.75:
		return badgeYellowGreen
	case p >= 0.50:
		return badgeYellow
	case p >= 0.25:
		return badgeOrange
	}
	return badgeRed
}

// textWidth estimates the rendered width of s in 11px Verdana, the badge
// font, closely enough to size the two halves; exact metrics would need the
// font file.
func textWidth(s string) int {
	w := 0.0
	for _, c := range s {
		switch {
		case strings.ContainsRune("ijl.,:;'|!", c):
			w += 3.6
		case strings.ContainsRune("ft/()[] ", c):
			w += 4.6
		case c == 'm' || c == 'w' || c == 'M' || c == 'W':
			w += 10.5
		case c >= 'A' && c <= 'Z':
			w += 7.6
		case c >= '0' && c <= '9':
			w += 7.0
		default:
			w += 6.6
		}
	}
	return int(w + 0.5)
}

func xmlText(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s)) // writes to a strings.Builder: cannot fail
	return b.String()
}

func badgeSVG(label, msg, colour string) string {
	lw, mw := textWidth(label)+12, textWidth(msg)+12
	w := lw + mw
	l, m := xmlText(label), xmlText(msg)
	return fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" width="%[1]d" height="20" role="img" aria-label="%[4]s: %[5]s">
<title>%[4]s: %[5]s</title>
<linearGradient id="g" x2="0" y2="100%%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>
<clipPath id="c"><rect width="%[1]d" height="20" rx="3" fill="#fff"/></clipPath>
<g clip-path="url(#c)"><rect width="%[2]d" height="20" fill="#555"/><rect x="%[2]d" width="%[3]d" height="20" fill="%[6]s"/><rect width="%[1]d" height="20" fill="url(#g)"/></g>
<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">
<text x="%[7]d" y="15" fill="#010101" fill-opacity=".3">%[4]s</text><text x="%[7]d" y="14">%[4]s</text>
<text x="%[8]d" y="15" fill="#010101" fill-opacity=".3">%[5]s</text><text x="%[8]d" y="14">%[5]s</text>
</g>
</svg>
`, w, lw, mw, l, m, colour, lw/2, lw+mw/2)
}
