// Package suggest words what parley suggests to the user: the names it
// probably meant (a command or flag within a few edits of what was typed),
// as a list to read ("'a', 'b' or 'c'"), and command lines quoted for a
// POSIX shell, ready to paste.
//
// It must not import cobra or any other package of parley.
package suggest

import "strings"

// Near reports whether typed is probably a slip for want: a unique-looking
// prefix of it, or within two edits (one for short words; two neighbouring
// letters swapped are one edit).
func Near(typed, want string) bool {
	typed, want = strings.ToLower(typed), strings.ToLower(want)
	if typed == "" {
		return false
	}
	if len(typed) >= 2 && strings.HasPrefix(want, typed) {
		return true
	}
	max := 2
	if len(want) <= 3 {
		max = 1
	}
	return edits(typed, want) <= max
}

// edits is the edit distance between a and b, in bytes, counting a swap
// of two neighbouring letters as one edit as typists make it ("rnu" for
// "run"), beside an insertion, a deletion and a substitution (the optimal
// string alignment distance).
func edits(a, b string) int {
	prev2 := make([]int, len(b)+1) // row i-2
	prev := make([]int, len(b)+1)  // row i-1
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// OrList joins names as "'a'", "'a' or 'b'", "'a', 'b' or 'c'".
func OrList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "'" + n + "'"
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

// CommandLine joins words into a command line for a POSIX shell, each
// quoted where it needs to be (Quote).
func CommandLine(words ...string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = Quote(w)
	}
	return strings.Join(q, " ")
}

// shellSafe reports whether a POSIX shell reads s as itself: letters,
// digits and _@%+=:,./- only.
func shellSafe(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', strings.ContainsRune("_@%+=:,./-", r):
		default:
			return false
		}
	}
	return true
}

// Quote quotes s for a POSIX shell, unless it needs no quotes.
func Quote(s string) string {
	if shellSafe(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
