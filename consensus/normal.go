package consensus

import (
	"math"
	"slices"
	"strings"
	"sync"
	"unicode"
)

// This file holds what the comparison normalises before it compares two
// positions: a number in any unit of its quantity reads as one value in
// that quantity's base unit (1.8 m is 180 cm, 2 kg is 2000 g), and a number
// that only names something (X.509, ROUTE-77, RFC 9110) is no number of
// the rule.

// measures are units of length, mass and volume, by the word or symbol
// written after a number, with their dimension and their size in the
// dimension's base unit (metres, grams, millilitres). Units of time, size
// and share are the lexicon's (units); a glued "10m" is ten minutes, as
// durations are written in configuration, and a spaced "1.8 m" a length.
var measures = sync.OnceValue(func() map[string]unit {
	return map[string]unit{
		"mm": {"length", 0.001}, "millimetre": {"length", 0.001}, "millimetres": {"length", 0.001}, "millimeter": {"length", 0.001}, "millimeters": {"length", 0.001},
		"cm": {"length", 0.01}, "centimetre": {"length", 0.01}, "centimetres": {"length", 0.01}, "centimeter": {"length", 0.01}, "centimeters": {"length", 0.01},
		"m": {"length", 1}, "metre": {"length", 1}, "metres": {"length", 1}, "meter": {"length", 1}, "meters": {"length", 1},
		"km": {"length", 1000}, "kilometre": {"length", 1000}, "kilometres": {"length", 1000}, "kilometer": {"length", 1000}, "kilometers": {"length", 1000},
		"inch": {"length", 0.0254}, "inches": {"length", 0.0254}, "ft": {"length", 0.3048}, "foot": {"length", 0.3048}, "feet": {"length", 0.3048},
		"mi": {"length", 1609.344}, "mile": {"length", 1609.344}, "miles": {"length", 1609.344},
		"yd": {"length", 0.9144}, "yds": {"length", 0.9144}, "yard": {"length", 0.9144}, "yards": {"length", 0.9144},
		"mg": {"mass", 0.001}, "milligram": {"mass", 0.001}, "milligrams": {"mass", 0.001},
		// The micro sign and the Greek mu are two letters that look alike.
		"µg": {"mass", 1e-6}, "μg": {"mass", 1e-6}, "mcg": {"mass", 1e-6}, "ug": {"mass", 1e-6}, "microgram": {"mass", 1e-6}, "micrograms": {"mass", 1e-6},
		"ounce": {"mass", 28.349523125}, "ounces": {"mass", 28.349523125},
		"g": {"mass", 1}, "gram": {"mass", 1}, "grams": {"mass", 1}, "gramme": {"mass", 1}, "grammes": {"mass", 1},
		"kg": {"mass", 1000}, "kilo": {"mass", 1000}, "kilos": {"mass", 1000}, "kilogram": {"mass", 1000}, "kilograms": {"mass", 1000},
		"tonne": {"mass", 1e6}, "tonnes": {"mass", 1e6}, "lb": {"mass", 453.59237}, "lbs": {"mass", 453.59237}, "oz": {"mass", 28.349523125},
		"µl": {"volume", 0.001}, "μl": {"volume", 0.001}, "microlitre": {"volume", 0.001}, "microlitres": {"volume", 0.001}, "microliter": {"volume", 0.001}, "microliters": {"volume", 0.001},
		"ml": {"volume", 1}, "millilitre": {"volume", 1}, "millilitres": {"volume", 1}, "milliliter": {"volume", 1}, "milliliters": {"volume", 1},
		"l": {"volume", 1000}, "litre": {"volume", 1000}, "litres": {"volume", 1000}, "liter": {"volume", 1000}, "liters": {"volume", 1000},
		// Money, each currency a dimension of its own: "15 USD" is not "15%"
		// nor "15 EUR". "pound" is left out: it weighs as often as it pays.
		"usd": {"usd", 1}, "dollar": {"usd", 1}, "dollars": {"usd", 1}, "eur": {"eur", 1}, "euro": {"eur", 1}, "euros": {"eur", 1},
		"gbp": {"gbp", 1}, "chf": {"chf", 1}, "jpy": {"jpy", 1}, "yen": {"jpy", 1}, "cad": {"cad", 1}, "aud": {"aud", 1},
		// Cents are read as a dollar's, the commoner; pence as a pound's.
		"cent": {"usd", 0.01}, "cents": {"usd", 0.01}, "pence": {"gbp", 0.01},
		"inr": {"inr", 1}, "rupees": {"inr", 1}, "rupee": {"inr", 1}, "sek": {"sek", 1}, "nok": {"nok", 1}, "dkk": {"dkk", 1},
		"cny": {"cny", 1}, "yuan": {"cny", 1}, "rmb": {"cny", 1}, "renminbi": {"cny", 1}, "idr": {"idr", 1}, "rupiah": {"idr", 1},
		"vnd": {"vnd", 1}, "dong": {"vnd", 1}, "dirham": {"dirham", 1}, "dirhams": {"dirham", 1}, "peso": {"peso", 1}, "pesos": {"peso", 1},
		"zar": {"zar", 1}, "rand": {"zar", 1}, "pln": {"pln", 1}, "zloty": {"pln", 1}, "zlotys": {"pln", 1}, "thb": {"thb", 1}, "baht": {"thb", 1},
		"myr": {"myr", 1}, "ringgit": {"myr", 1}, "ngn": {"ngn", 1}, "naira": {"ngn", 1}, "lira": {"lira", 1}, "liras": {"lira", 1},
		// Not "won" (a verb), "mad" (a word), "franc" (Swiss or CFA), "kroner" (Danish or Norwegian).
		// Temperature: "°C" and "degrees Celsius" read as "celsius" (lex);
		// Fahrenheit is a dimension of its own (its zero is not Celsius').
		"celsius": {"temperature", 1}, "fahrenheit": {"temperature_f", 1},
		// Force, in the plural only: "4 Newton Road" is an address. Not
		// "N" (the lexer reads it as "n") nor "kN" ("kn" is a knot).
		"newtons": {"force", 1}, "kilonewtons": {"force", 1000},
	}
})

// currencySigns are the signs written before an amount, as the unit
// written after it reads.
var currencySigns = sync.OnceValue(func() map[rune]string {
	return map[rune]string{'$': "usd", '€': "eur", '£': "gbp", '¥': "jpy"}
})

// measureAt reads a unit of measures at toks[at] and returns it.
func measureAt(toks []rawTok, at int) (unit, bool) {
	if at >= len(toks) || toks[at].isNum {
		return unit{}, false
	}
	u, ok := measures()[toks[at].low]
	return u, ok
}

// speedOf is the speed speedAt reads at toks[at], 0 when none: "km/h" is
// a speed, not a length.
func speedOf(toks []rawTok, at int) float64 {
	sp, _ := speedAt(toks, at)
	return sp
}

// namePart reports whether the digits at rs[i] end a name rather than
// count anything: glued by a dash or a dot to the letters before them
// ("ROUTE-77", "SUP-560", "X.509", "SHA-256"), or after a
// section sign ("§4.2"). The name is read as a word.
func namePart(rs []rune, i int) bool {
	if i == 0 {
		return false
	}
	if rs[i-1] == '§' {
		return true
	}
	switch {
	case i >= 2 && rs[i-1] == '.' && unicode.IsLetter(rs[i-2]):
		return true
	case i >= 2 && rs[i-1] == '-' && unicode.IsLetter(rs[i-2]) && (i == 2 || !unicode.IsLetter(rs[i-3])) && unicode.ToLower(rs[i-2]) != 't':
		// "R-14", "B-2": one letter and its number; not "T-30" (thirty
		// before the time, as a countdown writes it).
		return true
	case i >= 3 && rs[i-1] == '-' && unicode.IsLetter(rs[i-2]) && unicode.IsLetter(rs[i-3]):
		// Not a version ("Apache-2.0").
		j := i
		for j < len(rs) && unicode.IsDigit(rs[j]) {
			j++
		}
		return j == len(rs) || rs[j] != '.' || j+1 == len(rs) || !unicode.IsDigit(rs[j+1])
	}
	return false
}

// elidedUnits are the units a configuration value of time or size is
// written in without its unit: "timeout: 300" (seconds) for 5 minutes,
// "validity_days: 730" for 2 years, "max_upload: 10485760" for 10 MB.
var elidedUnits = sync.OnceValue(func() map[string][]float64 {
	return map[string][]float64{
		"time":  {0.001, 1, 60, 3600, 86400},
		"bytes": {1, 1 << 10, 1 << 20, 1 << 30},
	}
})

// elidedUnit reports whether the bare number y (digits, two or more, of
// no unit) is the quantity x in one of the units of x's dimension: "300"
// is "5 minutes" in seconds.
func elidedUnit(x, y quantity) bool {
	if x.dim == "" || y.dim != "" || !digits(y.text) || y.raw < 2 || x.raw == y.raw {
		return false
	}
	for _, u := range elidedUnits()[x.dim] {
		if v := x.value / u; math.Abs(v-y.raw) <= 1e-9*math.Max(1, v) {
			return true
		}
	}
	return false
}

// measured keeps, of the differences added ("(not said) → 11 minutes"),
// the ones whose number is a measure (a unit) of a dimension that a
// number of a, the filed rule, is a measure of too, the rates ("three
// times a day") beside a filed rule that states any number ("at 7:00 and
// 19:00"), and the periods ("checks the camera every 15 minutes"): how
// often a rule applies is a part of it.
func measured(added []string, a, b *analysis) []string {
	var out []string
	for _, d := range added {
		y, ok := quantityByText(b, strings.TrimPrefix(d, "(not said) → "))
		if !ok || y.dim != "" && slices.ContainsFunc(a.qty, func(x quantity) bool { return x.dim == y.dim }) || y.per != "" && len(a.qty) > 0 || y.every {
			out = append(out, d)
		}
	}
	return out
}

// keyUnits are the units a configuration key ends with, as a key's words
// read ("timeout_ms: 300" is "timeout ms 300"): abbreviations and plurals
// only, so that "day 3 of fermentation" stays the third day; not "min",
// which a key says for a minimum ("coverage.min = 80").
var keyUnits = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"ms": "millisecond", "s": "second", "sec": "second", "secs": "second", "seconds": "second",
		"mins": "minute", "minutes": "minute", "h": "hour", "hr": "hour", "hrs": "hour", "hours": "hour",
		"days": "day", "weeks": "week", "months": "month", "mo": "month", "years": "year",
		"kb": "kilobyte", "mb": "megabyte", "gb": "gigabyte", "tb": "terabyte", "bytes": "byte", "pct": "percent", "px": "pixel",
	}
})

// keyUnit reads the unit a number without one takes from the word just
// before it, when that word is a unit a key ends with (keyUnits, or a
// unit of measures) and neither a number nor a preposition that numbers
// days stands before it: "min depth cm 380" is 380 cm, "validity days
// 730" 730 days, "on days 1, 3 and 7" the days so numbered.
func keyUnit(toks []rawTok, i int) (unit, bool) {
	if i < 1 || toks[i-1].isNum || toks[i-1].clause != toks[i].clause || i >= 2 && (toks[i-2].isNum || dayNumbers()[toks[i-2].low]) {
		return unit{}, false
	}
	if i >= 2 {
		if _, ok := countedDays(toks, i-2); ok {
			return unit{}, false // "within_business_days: 2": keyDays reads it
		}
	}
	low := toks[i-1].low
	if u, ok := measures()[low]; ok && (low != "m" || i >= 2 && lengthWords()[toks[i-2].low]) && low != "l" {
		// "m" is metres after a word of length ("max_height_m: 120"),
		// else as often minutes.
		return u, true
	}
	if w := keyUnits()[low]; w != "" {
		u, ok := units()[w]
		return u, ok
	}
	return unit{}, false
}

// keyRate reads the unit and the period a configuration key ends with
// before the value at i: "min_duty_hours_per_month: 16" is 16 hours a
// month, "max_kg_per_day = 40" 40 kg a day.
func keyRate(toks []rawTok, i int) (u, per unit, ok bool) {
	if i < 3 || toks[i-2].low != "per" || toks[i-3].clause != toks[i].clause || toks[i-1].clause != toks[i].clause || toks[i-3].isNum || i >= 4 && toks[i-4].isNum {
		// Not "2 hours per day 3 times a week": the unit is another number's.
		return unit{}, unit{}, false
	}
	per, ok = units()[strings.TrimSuffix(toks[i-1].low, "s")]
	if !ok || per.dim != "time" {
		return unit{}, unit{}, false
	}
	low := toks[i-3].low
	if m, ok := measures()[low]; ok && len(low) > 1 {
		return m, per, true
	}
	if w := keyUnits()[low]; w != "" {
		u, ok := units()[w]
		return u, per, ok
	}
	return unit{}, unit{}, false
}

// lengthWords are the words of a key that measure a length, after which
// "m" is metres.
var lengthWords = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"height": true, "width": true, "length": true, "depth": true, "distance": true, "radius": true,
		"spacing": true, "clearance": true, "gap": true, "altitude": true, "elevation": true, "range": true, "buffer": true}
})

// keyDays reads a configuration key that counts days or hours of a kind
// before the value at i: "due_within_business_days: 2" is 2 business
// days, "triage_business_hours: 4" 4 business hours. It returns the
// length of one of them.
func keyDays(toks []rawTok, i int) (scale float64, kind string, ok bool) {
	if i < 2 || toks[i-1].clause != toks[i].clause {
		return 0, "", false
	}
	switch toks[i-1].low {
	case "days":
		scale = units()["day"].scale
	case "hours":
		scale = units()["hour"].scale
	default:
		return 0, "", false // "business day 5" is the fifth
	}
	kind, ok = countedDays(toks, i-2)
	return scale, kind, ok
}

// dayNumbers are the words before "days 1, 3 and 7" that make the numbers
// the names of days.
var dayNumbers = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"on": true, "at": true, "in": true, "of": true, "from": true, "between": true, "until": true, "by": true}
})

// withinBound reports whether y, a number b states without a bound, is a
// value the bound a sets with x allows: "wind 9 km/h" against "wind below
// 15 km/h", "we waited 11 minutes" against "within 15 minutes". Of one
// measured dimension only: a bare count ("after the
// first attempt" against "up to 3 attempts") states a rule of its own.
// The bound's own number in another unit ("gusts exceed 50 km/h" against
// "gusts top 50 knots", "more than 14 days" against "within 14 weeks")
// is the bound changed, not a value it allows.
func withinBound(a *analysis, x quantity, b *analysis, y quantity) bool {
	if x.dim == "" || x.dim != y.dim || x.per != y.per || boundOf(b, y) != "" || comparedBy(b, y) != "" ||
		x.raw != 0 && x.raw == y.raw && x.value != y.value {
		return false
	}
	lx := theLexicon()
	bound := boundOf(a, x)
	if bound == "" {
		bound = comparedBy(a, x)
	}
	switch bound {
	case lx.fold(stem("above")), lx.fold("atleast"):
		return y.value >= x.value
	case lx.fold(stem("below")), lx.fold("atmost"):
		return y.value <= x.value
	}
	return false
}

// andAHalf reports whether "and a half" follows toks[i] in its clause.
func andAHalf(toks []rawTok, i int) bool {
	if i+3 >= len(toks) || toks[i+3].clause != toks[i].clause {
		return false
	}
	return toks[i+1].low == "and" && (toks[i+2].low == "a" || toks[i+2].low == "an") && (toks[i+3].low == "half" || toks[i+3].text == "half")
}

// comparatives are the comparative words that set a bound with "than"
// before a number ("taller than 2.1 m", "younger than 12"), as the bound
// they set.
var comparatives = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"taller": "above", "longer": "above", "heavier": "above", "older": "above", "larger": "above", "bigger": "above",
		"higher": "above", "greater": "above", "wider": "above", "deeper": "above", "later": "above", "warmer": "above", "hotter": "above",
		"stronger": "above", "faster": "above",
		"shorter": "below", "lighter": "below", "younger": "below", "smaller": "below", "lower": "below", "narrower": "below",
		"shallower": "below", "earlier": "below", "cooler": "below", "colder": "below",
		"weaker": "below", "slower": "below",
	}
})

// comparedBy is the bound a comparative before q sets in x ("taller than
// 2.1 m" is above 2.1 m), folded as boundOf gives it, or "".
func comparedBy(x *analysis, q quantity) string {
	for i, t := range x.terms {
		if t.text != q.text || t.clause != q.clause || !strings.HasPrefix(t.w, "#") {
			continue
		}
		if i == 0 || x.terms[i-1].clause != t.clause || x.terms[i-1].neg {
			return ""
		}
		if b := comparatives()[strings.ToLower(x.terms[i-1].text)]; b != "" {
			return theLexicon().fold(stem(b))
		}
		return ""
	}
	return ""
}

// numbersRestated reports whether two numbers or more of the condition k
// of x (a bare "one" aside) are said by y in one
// clause: "when five separate people flag it inside 24 hours" is "once 5
// distinct users report it within 24 hours" in other words.
func numbersRestated(x *analysis, k int, y *analysis) bool {
	var qs []quantity
	for _, q := range x.qty {
		if q.cond == k && !bareOne(q) {
			qs = append(qs, q)
		}
	}
	if len(qs) < 2 {
		return false
	}
	byClause := map[int]int{}
	for _, q := range qs {
		seen := map[int]bool{}
		for _, r := range y.qty {
			if !seen[r.clause] && sameQuantity(q, r) {
				seen[r.clause] = true
				byClause[r.clause]++
			}
		}
	}
	for _, n := range byClause {
		if n >= 2 {
			return true
		}
	}
	return false
}
