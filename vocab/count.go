package vocab

import "strconv"

// Count is n with the noun, in the plural unless n is 1: "1 line",
// "2 lines", "0 events". noun is a word whose plural adds an "s" (line,
// event, turn, round, token).
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
