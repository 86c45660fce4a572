package consensus

import (
	"fmt"
	"strings"
	"testing"
)

// hostilePositions are texts an agent or a user may send as a position:
// long, full of numbers, conditions, negations or lists, in any script,
// or nothing at all.
func hostilePositions() map[string]string {
	var nums, conds, lists strings.Builder
	for i := 0; nums.Len() < 100<<10; i++ {
		fmt.Fprintf(&nums, "%d ms, %d.5 MB or %d%% ", i, i, i%100)
	}
	for i := 0; conds.Len() < 100<<10; i++ {
		fmt.Fprintf(&conds, "unless w%d if x%d except y%d, not z%d ", i, i, i, i)
	}
	for i := 0; lists.Len() < 100<<10; i++ {
		fmt.Fprintf(&lists, "item%d and item%d or ", i, i+1)
	}
	return map[string]string{
		"empty":         "",
		"spaces":        " \t\n ",
		"words 100 KiB": strings.Repeat("cache the product pages at the edge ", 100<<10/36),
		"numbers":       nums.String(),
		"conditions":    conds.String(),
		"lists":         lists.String(),
		"negations":     strings.Repeat("not never no ", 100<<10/13),
		"unicode":       strings.Repeat("Кэшировать 商品ページ 🦜 \u202ertl\u202c é\u0301 ", 2000),
		"invalid utf-8": strings.Repeat("\xff\xfe\x00", 30000),
		"one long word": strings.Repeat("a", 100<<10),
		"number words":  strings.Repeat("twenty five hundred thousand million ", 3000),
		"day ranges":    strings.Repeat("no deploys Monday to Friday, Mon-Thu; weekends off-limits but Sat–Sun ", 100<<10/72),
		"huge numbers":  strings.Repeat("1e308 9999999999999999999999 ", 3000),
		"symbols":       strings.Repeat(">=<=24/7->%/min ", 6000),
		"clock times":   strings.Repeat("10:30pm 25:00 12:60 am 0:00am 13pm 1:00:00 99:99 pm a month at once, included; ", 1200),
		// Words that share the span of one hyphenated word ("built-in")
		// before the readings that look back at the text between words.
		"hyphenated periods": strings.Repeat("5 built-in a week, 3 kg of feed-a day, 2 x-in one month, otherwise-in any one year 4 plus-25% off-of 5% surcharge of 5 ", 1000),
	}
}

// TestComparePositionsHostile compares every hostile position with a
// plain one and with itself: the answers stay valid, a text compared with
// itself agrees, and a long position that differs only past what is read
// is never called consistent.
func TestComparePositionsHostile(t *testing.T) {
	plain := "Cache product pages at the CDN for 10 minutes unless the price changes."
	for name, p := range hostilePositions() {
		t.Run(name, func(t *testing.T) {
			for _, c := range []Comparison{ComparePositions(plain, p), ComparePositions(p, plain), ComparePositions(p, p+" ")} {
				switch c.Agreement {
				case Agree, Disagree, Unsure:
				default:
					t.Fatalf("agreement %q", c.Agreement)
				}
				if c.Score < 0 || c.Score > 1 {
					t.Fatalf("score %v", c.Score)
				}
			}
			if c := ComparePositions(p, p); c.Agreement != Agree {
				t.Errorf("a position compared with itself: %v", c)
			}
			if s := TopicScore(p, p+"?"); s < 0 || s > 1 {
				t.Errorf("topic score %v", s)
			}
		})
	}
	long := strings.Repeat("Cache product pages at the CDN. ", 200)
	c := ComparePositions(long+"Keep them for 10 minutes.", long+"Keep them for 20 minutes.")
	if c.Agreement == Agree {
		t.Errorf("long positions that differ past what is read: %v, want not consistent", c)
	}
}

// BenchmarkComparePositions measures a comparison of two ordinary
// positions beside ones of 100 KiB of hostile text: the hostile ones cost
// a bounded multiple of the ordinary one, since only the start of a long
// text is read.
func BenchmarkComparePositions(b *testing.B) {
	plain := "Cache product pages at the CDN for 10 minutes unless the price changes."
	b.Run("ordinary", func(b *testing.B) {
		for b.Loop() {
			ComparePositions(plain, "The CDN keeps product pages for ten minutes; a price change purges them.")
		}
	})
	b.Run("edit", func(b *testing.B) {
		for b.Loop() {
			ComparePositions(plain, "Cache product pages at the CDN for 10 minutes unless the stock changes.")
		}
	})
	b.Run("names and clauses", func(b *testing.B) {
		for b.Loop() {
			ComparePositions("Brand materials use Inter for body text and Playfair Display for headings; never Arial.",
				"Headings are set in Playfair Display, body copy in Inter, and Arial is not used.")
		}
	})
	for name, p := range hostilePositions() {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				ComparePositions(p, p+" x")
			}
		})
	}
}

// FuzzComparePositions compares arbitrary texts: no panic, a valid
// answer, and a text compared with itself agrees.
func FuzzComparePositions(f *testing.F) {
	f.Add("Round currency amounts half-to-even to 2 decimal places.", "Round currency amounts half-up to 2 decimal places.")
	f.Add("Brand materials use Inter for body text and Playfair Display for headings.", "Headings in Inter, body text in Playfair Display.")
	f.Add("q=80 48h 1e3 4.5:1 ≥ 3", "24/7 /min a/b — No, whatever or not")
	f.Add("", "x")
	f.Add(`{"hold_until": "paid", "no_refund_until_days": 14}`, "hold_until=paid, never_until=x")
	f.Add("BEGIN:VEVENT RRULE:FREQ=WEEKLY;BYDAY=MO,TU;INTERVAL=2 DTSTART:--1227T160000 DURATION:PT1H30M END:VEVENT", "open Monday until Friday, but not if it rains; latest 4 pm")
	f.Add("one euro fifty for metre, 45.000 rupiah, 60 and over", "$x = ['max_height_m' => 12, 'y' =>]; 12 pound, u can't fail to")
	f.Add("Dinner 7.30pm or 8.15 in the evening, one and half hour, over 160 cm and up to 250 cm, a Year 6 monitor", "EUR50 eur9999999999999999999 in the first hour, thirty miles an hour, 12.60 pm, 13.30 am")
	f.Add("A claim is not paid unless the receipt is attached; every van only up to 15 minutes.", "Handoff: claims are paid only when the receipt is attached. Every second Sunday at 3 degrees and falling.")
	f.Add("No entry unless unless not never only only: all every at all", "Week 6 log: : : only after every")
	f.Add("Keys by 12 noon, not after 7 am, from 31 March until 3 June; 60x40x40 cm 0x1f", "within 72 hours of arrival, a maximum of 72 hours after; not before 9; by 14 days before; renew_every_months: 12")
	f.Add("Each adult reader: 3 nights in any 14-day period; the log is optional; whatever's left goes; A&E meds", "Every reader, adult or child, 3 per fortnight; need not keep the log, not optional, no log is required; rejected, not accepted")
	f.Add("Every session costs £3 a copy, £40 for a room, 1 µg, 2 ounces; except juniors, unless in hospital", "only weekend sessions, card or cash only though; being in hospital makes no difference - like any other, even if; Saturdays only, 7-10am")
	f.Fuzz(func(t *testing.T, a, b string) {
		c := ComparePositionsOn(b, a, b)
		switch c.Agreement {
		case Agree, Disagree, Unsure:
		default:
			t.Fatalf("agreement %q", c.Agreement)
		}
		if c := ComparePositions(a, a); c.Agreement != Agree {
			t.Fatalf("a text against itself: %+v", c)
		}
	})
}
