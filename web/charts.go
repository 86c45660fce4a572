package web

// Charts drawn on the server as inline SVG: no script, nothing fetched,
// every piece of text that came from a debate or a log escaped. Each chart
// is a <figure class="chart"> with a caption that says in words what the
// picture shows, so it reads without the picture too.

import (
	"fmt"
	"html"
	"html/template"
	"sort"
	"strconv"
	"strings"

	"github.com/parleyhq/parley/debate"
	"github.com/parleyhq/parley/gating"
	"github.com/parleyhq/parley/internal/clip"
	"github.com/parleyhq/parley/transcripts"
	"github.com/parleyhq/parley/vocab"
)

// palette colours the participants, in the order the session lists them.
var palette = []string{"#c05621", "#2f5fa8", "#7b3fa0", "#1f7a3d", "#b7791f", "#2c7a7b", "#9b2c2c", "#4a5568"}

func colour(i int) string { return palette[i%len(palette)] }

// debateCharts draws a debate's two charts: tokens per round and agent
// against the budget, and the positions over rounds.
func debateCharts(v *transcripts.View) template.HTML {
	if v.Turns == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(`<div class="charts">` + "\n")
	tokensChart(&b, v)
	positionsChart(&b, v)
	b.WriteString("</div>\n")
	return template.HTML(b.String()) // every value written above is escaped
}

// maxChartRounds is the most rounds a chart draws: the latest ones.
const maxChartRounds = 30

// window is the rounds a chart draws, first to last, and a note saying
// so when they are not all of them.
func window(rounds int) (first int, note string) {
	first = max(1, rounds-maxChartRounds+1)
	if first > 1 {
		note = fmt.Sprintf(" Rounds %d–%d of %d shown.", first, rounds, rounds)
	}
	return first, note
}

// roundsOf is the highest round with an entry.
func roundsOf(v *transcripts.View) int {
	n := 0
	for _, r := range v.Rounds {
		n = max(n, r.N)
	}
	return n
}

// participantIndex maps a participant's name to its place in the session.
func participantIndex(v *transcripts.View) map[string]int {
	idx := map[string]int{}
	for i, p := range v.Participants {
		idx[p.Name] = i
	}
	return idx
}

// tokensChart: for each round, one bar per participant (the tokens of its
// turns in that round), a dashed line at the allowance of one agent in one
// round, and the whole debate's spend against its budget underneath.
func tokensChart(b *strings.Builder, v *transcripts.View) {
	rounds := roundsOf(v)
	if rounds == 0 || len(v.Participants) == 0 {
		return
	}
	idx := participantIndex(v)
	tokens := make([][]int, rounds+1) // [round][participant]
	for r := range tokens {
		tokens[r] = make([]int, len(v.Participants))
	}
	peak := v.Budget.MaxTokensPerRound
	for _, r := range v.Rounds {
		for _, e := range r.Entries {
			if e.Turn == nil || r.N < 1 {
				continue
			}
			i, ok := idx[e.Turn.Agent]
			if !ok {
				continue
			}
			tokens[r.N][i] += e.Turn.Tokens
			peak = max(peak, tokens[r.N][i])
		}
	}
	peak = max(peak, 1)
	const (
		w, h               = 460, 210
		left, right        = 46, 10
		top, bottom        = 12, 58
		plotW, plotH       = w - left - right, h - top - bottom
		groupGap, barRatio = 0.25, 1.0
	)
	y := func(t int) float64 { return float64(top) + float64(plotH)*(1-float64(t)/float64(peak)*0.9) }
	first, note := window(rounds)
	groupW := float64(plotW) / float64(rounds-first+1)
	barW := groupW * (1 - groupGap) / float64(len(v.Participants)) * barRatio
	caption := fmt.Sprintf("Tokens per round and agent; dashed: the %d-token allowance of one agent in one round. In all: %d of %d tokens.%s",
		v.Budget.MaxTokensPerRound, v.Tokens, v.Budget.MaxTokens, note)
	fmt.Fprintf(b, `<figure class="chart" id="chart-tokens"><figcaption>%s</figcaption>`, esc(caption))
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="%s">`, w, h, w, h, esc(caption))
	// Axis and grid: 0, the allowance, the peak.
	fmt.Fprintf(b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#999"/>`, left, y(0), w-right, y(0))
	for _, t := range []int{0, peak} {
		fmt.Fprintf(b, `<text x="%d" y="%.1f" text-anchor="end">%d</text>`, left-4, y(t)+4, t)
	}
	// At most about 10 round labels, so that they never overlap.
	stride := max(1, (rounds-first+1+9)/10)
	for r := first; r <= rounds; r++ {
		x0 := float64(left) + groupW*float64(r-first) + groupW*groupGap/2
		for i := range v.Participants {
			t := tokens[r][i]
			over := ""
			if v.Budget.MaxTokensPerRound > 0 && t > v.Budget.MaxTokensPerRound {
				over = ` stroke="#b3261e" stroke-width="2"`
			}
			fmt.Fprintf(b, `<rect class="bar" x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"%s><title>%s</title></rect>`,
				x0+barW*float64(i), y(t), max(barW-1, 1), y(0)-y(t), colour(i), over,
				esc(fmt.Sprintf("round %d, %s: %d tokens", r, v.Participants[i].Name, t)))
		}
		if (r-first)%stride == 0 {
			fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="middle">round %d</text>`, x0+groupW*(1-groupGap)/2, y(0)+14, r)
		}
	}
	if a := v.Budget.MaxTokensPerRound; a > 0 {
		fmt.Fprintf(b, `<line class="allowance" x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#b3261e" stroke-dasharray="5 4"/>`, left, y(a), w-right, y(a))
		fmt.Fprintf(b, `<text x="%d" y="%.1f" text-anchor="end" fill="#b3261e">%d per round</text>`, w-right, y(a)-4, a)
	}
	// The whole budget: a bar of what is spent.
	by := h - 30
	full := float64(plotW)
	spent := 0.0
	if v.Budget.MaxTokens > 0 {
		spent = min(full, full*float64(v.Tokens)/float64(v.Budget.MaxTokens))
	}
	fmt.Fprintf(b, `<rect x="%d" y="%d" width="%.1f" height="8" fill="#e2e2e2"/><rect class="spent" x="%d" y="%d" width="%.1f" height="8" fill="#555"/>`, left, by, full, left, by, spent)
	fmt.Fprintf(b, `<text x="%d" y="%d" text-anchor="end">budget</text>`, left-4, by+8)
	// Legend.
	lx := float64(left)
	for i, p := range v.Participants {
		fmt.Fprintf(b, `<rect x="%.1f" y="%d" width="10" height="10" fill="%s"/><text x="%.1f" y="%d">%s</text>`, lx, h-12, colour(i), lx+14, h-3, esc(clip.Line(p.Name, 22)))
		lx += 28 + 6.5*float64(len([]rune(clip.Line(p.Name, 22))))
	}
	b.WriteString("</svg></figure>\n")
}

// positionsChart: a row per participant, a column per round; each turn is
// a disc lettered with its position (the same letter is the same position,
// whoever holds it), filled where the agent moved to a new position and
// hollow where it held its own; a conceding turn is a dash and a forfeit a
// cross. The letters are spelled out under the chart.
func positionsChart(b *strings.Builder, v *transcripts.View) {
	rounds := roundsOf(v)
	if rounds == 0 || len(v.Participants) == 0 {
		return
	}
	idx := participantIndex(v)
	type cell struct {
		letter  int // 0: none; 1 is A
		moved   bool
		concede bool
		forfeit bool
	}
	cells := make([][]cell, len(v.Participants)) // [participant][round]
	for i := range cells {
		cells[i] = make([]cell, rounds+1)
	}
	letters := map[string]int{}
	var texts []string
	last := make([]int, len(v.Participants))
	// The defender starts from the opening position: its first turn holds
	// it (hollow) unless it says something else.
	opening := debate.PositionHash(v.OpeningPosition)
	for _, r := range v.Rounds {
		if r.N < 1 {
			continue
		}
		for _, e := range r.Entries {
			switch {
			case e.Turn != nil:
				i, ok := idx[e.Turn.Agent]
				if !ok {
					continue
				}
				if e.Turn.Position == "" {
					cells[i][r.N] = cell{concede: true}
					continue
				}
				key := e.Turn.PositionHash
				if key == "" {
					key = strings.Join(strings.Fields(strings.ToLower(e.Turn.Position)), " ")
				}
				l, ok := letters[key]
				if !ok {
					texts = append(texts, e.Turn.Position)
					l = len(texts)
					letters[key] = l
				}
				moved := last[i] != l
				if last[i] == 0 && e.Turn.Role == debate.RoleDefender && key == opening {
					moved = false
				}
				cells[i][r.N] = cell{letter: l, moved: moved}
				last[i] = l
			case e.Forfeit != nil:
				if i, ok := idx[e.Forfeit.Agent]; ok {
					cells[i][r.N] = cell{forfeit: true}
				}
			}
		}
	}
	const (
		left, top  = 120, 22
		colW, rowH = 64, 34
		rad        = 11
	)
	first, note := window(rounds)
	w := left + colW*(rounds-first+1) + 10
	h := top + rowH*len(v.Participants) + 8
	caption := "Positions over rounds: each letter is one position; a filled disc is a move to a new position, a hollow one a position held; – concedes, × forfeits." + note
	clipped := make([]string, len(texts))
	for i, t := range texts {
		clipped[i] = clip.Line(t, 200)
	}
	fmt.Fprintf(b, `<figure class="chart" id="chart-positions"><figcaption>%s</figcaption>`, esc(caption))
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="%s">`, w, h, w, h, esc(caption))
	for r := first; r <= rounds; r++ {
		fmt.Fprintf(b, `<text x="%d" y="%d" text-anchor="middle">round %d</text>`, left+colW*(r-first)+colW/2, top-8, r)
	}
	used := map[int]bool{}
	for i, p := range v.Participants {
		cy := top + rowH*i + rowH/2
		fmt.Fprintf(b, `<text x="%d" y="%d" text-anchor="end" fill="%s">%s</text>`, left-8, cy+4, colour(i), esc(clip.Line(p.Name, 18)))
		fmt.Fprintf(b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#ddd"/>`, left, cy, left+colW*(rounds-first+1), cy)
		for r := first; r <= rounds; r++ {
			c := cells[i][r]
			cx := left + colW*(r-first) + colW/2
			switch {
			case c.concede:
				fmt.Fprintf(b, `<text x="%d" y="%d" text-anchor="middle" font-weight="700"><title>%s</title>–</text>`, cx, cy+4, esc(fmt.Sprintf("round %d: %s concedes", r, p.Name)))
			case c.forfeit:
				fmt.Fprintf(b, `<text x="%d" y="%d" text-anchor="middle" fill="#b3261e" font-weight="700"><title>%s</title>×</text>`, cx, cy+4, esc(fmt.Sprintf("round %d: %s forfeits", r, p.Name)))
			case c.letter > 0:
				used[c.letter] = true
				fill, text := "#fff", colour(i)
				if c.moved {
					fill, text = colour(i), "#fff"
				}
				verb := "holds"
				if c.moved {
					verb = "moves to"
				}
				fmt.Fprintf(b, `<g class="pos"><title>%s</title><circle cx="%d" cy="%d" r="%d" fill="%s" stroke="%s" stroke-width="2"/><text x="%d" y="%d" text-anchor="middle" fill="%s" font-weight="700">%s</text></g>`,
					esc(fmt.Sprintf("round %d: %s %s %s: %s", r, p.Name, verb, letter(c.letter), clipped[c.letter-1])),
					cx, cy, rad, fill, colour(i), cx, cy+4, text, letter(c.letter))
			}
		}
	}
	b.WriteString("</svg>")
	// The legend spells out the letters drawn (value keeps each letter).
	b.WriteString(`<ol class="legend" type="A">`)
	for i := range texts {
		if used[i+1] {
			fmt.Fprintf(b, `<li value="%d">%s</li>`, i+1, esc(clip.Line(texts[i], 160)))
		}
	}
	b.WriteString("</ol></figure>\n")
}

// letter is the n-th position's letter: A … Z, then AA, AB …
func letter(n int) string {
	s := ""
	for n > 0 {
		n--
		s = string(rune('A'+n%26)) + s
		n /= 26
	}
	return s
}

var esc = html.EscapeString

// gateDay is one day of the gate's record.
type gateDay struct {
	Day           string
	Debate, Skip  int
	Saved, Totals int
}

// maxGateDays bounds the days the gate chart draws: the latest ones.
const maxGateDays = 60

// gateDays sums the gate's decisions per day (UTC): how many questions it
// sent to a debate and how many it skipped, and the tokens the skips saved
// (each skip priced at its layer's token budget, as gate stats does).
func gateDays(entries []gating.LogEntry, budget func(debate.Layer) int) []gateDay {
	// A decision without a known layer is priced at the smallest budget,
	// as gate stats prices it: the estimate errs low.
	smallest := 0
	for i, l := range debate.Layers {
		if b := budget(l); i == 0 || b < smallest {
			smallest = b
		}
	}
	price := func(l debate.Layer) int {
		if _, err := debate.ParseLayer(string(l)); err != nil || l == "" {
			return smallest
		}
		return budget(l)
	}
	byDay := map[string]*gateDay{}
	for _, e := range entries {
		if len(e.Time) < 10 {
			continue
		}
		day := e.Time[:10]
		d := byDay[day]
		if d == nil {
			d = &gateDay{Day: day}
			byDay[day] = d
		}
		if e.Outcome == gating.Skip {
			d.Skip++
			d.Saved += price(e.Layer)
		} else {
			d.Debate++
		}
	}
	days := make([]gateDay, 0, len(byDay))
	for _, d := range byDay {
		days = append(days, *d)
	}
	sort.Slice(days, func(i, j int) bool { return days[i].Day < days[j].Day })
	total := 0
	for i := range days {
		total += days[i].Saved
		days[i].Totals = total
	}
	if len(days) > maxGateDays {
		days = days[len(days)-maxGateDays:]
	}
	return days
}

// gateChart draws the gate's record over time: a stacked bar per day
// (debated below, skipped above) and the tokens saved so far as a line.
func gateChart(days []gateDay, st gating.Stats) template.HTML {
	if len(days) == 0 {
		return ""
	}
	const (
		w, h        = 640, 200
		left, right = 40, 60
		top, bottom = 12, 40
		plotW       = w - left - right
		plotH       = h - top - bottom
	)
	peak, peakSaved := 1, 1
	for _, d := range days {
		peak = max(peak, d.Debate+d.Skip)
		peakSaved = max(peakSaved, d.Totals)
	}
	y := func(n int) float64 { return float64(top) + float64(plotH)*(1-float64(n)/float64(peak)) }
	ys := func(n int) float64 { return float64(top) + float64(plotH)*(1-float64(n)/float64(peakSaved)) }
	colW := float64(plotW) / float64(len(days))
	caption := fmt.Sprintf("The gate's record: %s, %d sent to a debate, %d skipped; about %s saved against debating every one. Bars: questions per day (dark: debated, light: skipped); line: tokens saved so far.",
		vocab.Count(st.Decisions, "question"), st.Debate, st.Skip, vocab.Count(st.TokensSaved, "token"))
	if st.BadLines > 0 {
		verb := "are"
		if st.BadLines == 1 {
			verb = "is"
		}
		caption += fmt.Sprintf(" %s of %s could not be read and %s left out.", vocab.Count(st.BadLines, "line"), gating.LogName, verb)
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<figure class="chart" id="chart-gate"><figcaption>%s</figcaption>`, esc(caption))
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="%s">`, w, h, w, h, esc(caption))
	fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#999"/>`, left, y(0), w-right, y(0))
	fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end">%d</text><text x="%d" y="%.1f" text-anchor="end">0</text>`, left-4, y(peak)+4, peak, left-4, y(0)+4)
	fmt.Fprintf(&b, `<text x="%d" y="%.1f" fill="#1f7a3d">%s</text>`, w-right+4, ys(peakSaved)+4, esc(compact(peakSaved)))
	var line []string
	for i, d := range days {
		x := float64(left) + colW*float64(i)
		bw := max(colW*0.7, 1)
		fmt.Fprintf(&b, `<rect class="debated" x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#2f5fa8"><title>%s</title></rect>`,
			x+colW*0.15, y(d.Debate), bw, y(0)-y(d.Debate), esc(fmt.Sprintf("%s: %d debated", d.Day, d.Debate)))
		fmt.Fprintf(&b, `<rect class="skipped" x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#9ec1ea"><title>%s</title></rect>`,
			x+colW*0.15, y(d.Debate+d.Skip), bw, y(d.Debate)-y(d.Debate+d.Skip), esc(fmt.Sprintf("%s: %d skipped, %d tokens saved", d.Day, d.Skip, d.Saved)))
		line = append(line, fmt.Sprintf("%.1f,%.1f", x+colW/2, ys(d.Totals)))
		if i == 0 || i == len(days)-1 || len(days) <= 8 {
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`, x+colW/2, y(0)+14, esc(d.Day[5:]))
		}
	}
	fmt.Fprintf(&b, `<polyline class="saved" points="%s" fill="none" stroke="#1f7a3d" stroke-width="2"/>`, strings.Join(line, " "))
	fmt.Fprintf(&b, `<rect x="%d" y="%d" width="10" height="10" fill="#2f5fa8"/><text x="%d" y="%d">debated</text>`, left, h-12, left+14, h-3)
	fmt.Fprintf(&b, `<rect x="%d" y="%d" width="10" height="10" fill="#9ec1ea"/><text x="%d" y="%d">skipped</text>`, left+80, h-12, left+94, h-3)
	fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#1f7a3d" stroke-width="2"/><text x="%d" y="%d">tokens saved so far</text>`, left+160, h-7, left+176, h-7, left+180, h-3)
	b.WriteString("</svg></figure>\n")
	return template.HTML(b.String()) // every value written above is escaped
}

// compact writes a count of tokens shortly: 950, 12.5k, 3.1M.
func compact(n int) string {
	switch {
	case n >= 1_000_000:
		return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + "M"
	case n >= 10_000:
		return strconv.FormatFloat(float64(n)/1e3, 'f', 1, 64) + "k"
	}
	return strconv.Itoa(n)
}
