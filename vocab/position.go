package vocab

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Normalize puts a position in the form positions are compared in: Unicode
// NFC, lower case, runs of white space collapsed to one space, and trailing
// punctuation trimmed. Two positions are the same position when their
// normal forms are equal.
func Normalize(position string) string {
	s := strings.ToLower(norm.NFC.String(position))
	s = strings.Join(strings.Fields(s), " ")
	return strings.TrimRightFunc(s, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSpace(r) })
}

// PositionHash is the hex SHA-256 of the normalized position; an empty
// position (nothing asserted) hashes to "".
func PositionHash(position string) string {
	n := Normalize(position)
	if n == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(n))
	return hex.EncodeToString(sum[:])
}
