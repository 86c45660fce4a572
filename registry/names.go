package registry

import (
	"math/rand/v2"
)

// The word lists of memorable names: Adjective+Noun, e.g. "SwiftRaven".
// Both lists are ASCII and capitalised, so every combination (with a
// numeric suffix) is a valid agent name.
var (
	adjectives = []string{
		"Amber", "Bold", "Brave", "Bright", "Brisk", "Calm", "Clever", "Cobalt",
		"Crimson", "Curious", "Daring", "Deft", "Eager", "Fair", "Fierce", "Frank",
		"Gentle", "Glad", "Golden", "Grand", "Hardy", "Hazel", "Honest", "Humble",
		"Ivory", "Jade", "Jolly", "Keen", "Kind", "Lively", "Lucid", "Lunar",
		"Mellow", "Merry", "Mighty", "Nimble", "Noble", "Olive", "Patient", "Plucky",
		"Polar", "Proud", "Quick", "Quiet", "Rapid", "Ready", "Royal", "Ruby",
		"Sage", "Scarlet", "Serene", "Sharp", "Silver", "Sly", "Solar", "Steady",
		"Stout", "Swift", "Tidy", "True", "Vivid", "Wise", "Witty", "Zesty",
	}
	nouns = []string{
		"Badger", "Bear", "Beaver", "Bison", "Condor", "Coyote", "Crane", "Crow",
		"Dolphin", "Dove", "Eagle", "Egret", "Falcon", "Ferret", "Finch", "Fox",
		"Gecko", "Gull", "Hare", "Hawk", "Heron", "Ibis", "Jackal", "Jay",
		"Kestrel", "Kite", "Koala", "Lark", "Lemur", "Lion", "Lynx", "Marten",
		"Merlin", "Mole", "Moose", "Newt", "Osprey", "Otter", "Owl", "Panda",
		"Panther", "Pelican", "Puffin", "Quail", "Raven", "Robin", "Salmon", "Seal",
		"Shrike", "Sparrow", "Stork", "Swan", "Swift", "Tern", "Tiger", "Toucan",
		"Trout", "Viper", "Walrus", "Weasel", "Whale", "Wolf", "Wren", "Yak",
	}
)

// memorableName returns an Adjective+Noun drawn with intN.
func memorableName(intN func(int) int) string {
	return adjectives[intN(len(adjectives))] + nouns[intN(len(nouns))]
}

// MemorableName draws a random Adjective+Noun name ("SwiftRaven") from rng.
func MemorableName(rng *rand.Rand) string { return memorableName(rng.IntN) }

// RandomName draws a memorable name from math/rand/v2's global generator,
// which is randomly seeded and safe for concurrent use: the registries'
// default source of names.
func RandomName() string { return memorableName(rand.IntN) }
