package consensus

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// slotWords are the prepositions that open the place, the doer or the
// means of a rule after the word they follow: "printed by the security
// guard", "handed over at the estate office", "sent to the returns
// depot", "stored in the tape library", "paid via the card reader".
var slotWords = foldedWordSet("by at to from with via through in into")

// slotSkips are the words between a preposition and what it names that
// name nothing themselves: "by the guard", "to their GP".
var slotSkips = foldedWordSet("the a an their its our your his her this that each every any")

// slotParticles are the words that finish a verb before a slot's
// preposition: "sent back to the depot", "handed over at the office".
var slotParticles = wordSet("back over out up down off away")

// slotEnds are the words that end what a slot names: "by the principal
// scientist before sailing", "by the chair within 10 days".
var slotEnds = wordSet("before after until till within during for every each per on than since when if unless while because so then")

// slotModals are the words between a doer and its verb: "the chair will
// approve".
var slotModals = foldedWordSet("will shall should can could would")

// maxSlotWords bounds the words of what a slot names.
const maxSlotWords = 5

// slot is a place of a rule: what is named after a preposition, its
// head the word before the preposition ("printed"), prep the preposition
// ("by"); or the doer of a verb, its head the verb ("orders"), prep
// "@doer". words are the specific words that name it ("securiti",
// "guard"), text those words as written.
type slot struct {
	head, prep string
	words      []string
	text       string
}

// slotsOf are the slots of a side whose head and preposition it says once:
// "Visitor badges are printed by the security guard at the front gate"
// has "print by securiti guard" and "guard at front gat"; "the crop
// walker orders them" has "order @doer crop walker".
func slotsOf(text string, ts []surfaceTok) map[[2]string]slot {
	out := map[[2]string]slot{}
	seen := map[[2]string]int{}
	// ends reports whether punctuation follows t: "approves; pre-empted
	// observers" is no doer of "observers".
	ends := func(t surfaceTok) bool {
		k := t.end
		for k < len(text) && (text[k] == '\'' || strings.HasPrefix(text[k:], "’")) {
			_, n := utf8.DecodeRuneInString(text[k:])
			k += n // the apostrophe of "guide's"
			for k < len(text) && text[k] >= 'a' && text[k] <= 'z' {
				k++
			}
		}
		if k >= len(text) {
			return false
		}
		switch c := text[k]; {
		case c == '.':
			return k+1 == len(text) || text[k+1] == ' ' || text[k+1] == '\n'
		default:
			return strings.IndexByte(",;:!?)", c) >= 0
		}
	}
	verbs := map[int]bool{} // the verbs of the doers found
	// The doer before a verb: "the crop walker orders them", "the
	// householder must arrange". The verb is said with a modal before it
	// or with the "s" of its third person; what names the doer opens its
	// clause or follows an article.
	for i := 1; i < len(ts); i++ {
		v := ts[i]
		if v.ignore || v.quant || strings.HasPrefix(v.key, "@") {
			continue
		}
		j := i - 1
		modal := false
		for j >= 0 && (slotModals()[ts[j].key] || ts[j].key == "@must" || ts[j].key == "@may") && !ends(ts[j]) {
			modal = true
			j--
		}
		// "the duty astronomer's approval": the doer of the act named.
		possessive := !modal && j >= 1 && ts[j].key == "s" && ts[j].start == ts[j-1].start &&
			(strings.HasSuffix(text[ts[j].start:ts[j].end], "'s") || strings.HasSuffix(text[ts[j].start:ts[j].end], "’s"))
		if strings.HasSuffix(text[v.start:v.end], "'s") || strings.HasSuffix(text[v.start:v.end], "’s") {
			continue // "the duty astronomer's": no verb
		}
		if possessive {
			j--
		} else if !modal && !strings.HasSuffix(strings.ToLower(text[v.start:v.end]), "s") || strings.IndexByte(text[v.start:v.end], '-') >= 0 {
			continue
		}
		var words []string
		from, to := -1, -1
		for ; j >= 0 && len(words) <= maxSlotWords; j-- {
			t := ts[j]
			if t.key == "of" && len(words) > 0 && j > 0 && !ts[j-1].ignore && !ts[j-1].quant && !strings.HasPrefix(ts[j-1].key, "@") && !ends(t) {
				continue // "the director of operations approves"
			}
			if t.ignore || t.quant || strings.HasPrefix(t.key, "@") || ends(t) || slotEnds()[strings.ToLower(text[t.start:t.end])] {
				break
			}
			if to < 0 {
				to = t.end
			}
			from = t.start
			words = append([]string{t.key}, words...)
		}
		if len(words) == 0 || len(words) > maxSlotWords || !plainWords(text[from:to]) {
			continue
		}
		if j >= 0 && !ends(ts[j]) && !slotSkips()[ts[j].key] && ts[j].key != "and" && ts[j].key != "then" {
			continue // "… tank on a hard surface": no doer
		}
		verbs[i] = true
		k := [2]string{v.key, "@doer"}
		seen[k]++
		out[k] = slot{head: v.key, prep: "@doer", words: words, text: text[from:to]}
	}
	// The place, doer or means after a preposition, up to the verb of a
	// doer: "the tenant with the en-suite pays".
	for i := 1; i+1 < len(ts); i++ {
		p, h := ts[i], ts[i-1]
		if i >= 2 && slotParticles()[strings.ToLower(text[h.start:h.end])] {
			h = ts[i-2] // "sent back to", "handed over at": the verb's
		}
		if !slotWords()[p.key] || h.quant || strings.HasPrefix(h.key, "@") || slotSkips()[h.key] || slotWords()[h.key] || ends(h) || negatedBefore(ts, h.start) {
			continue
		}
		s := slot{head: h.key, prep: p.key}
		from, to := -1, -1
		for j := i + 1; j < len(ts) && len(s.words) <= maxSlotWords; j++ {
			t := ts[j]
			if verbs[j] {
				break
			}
			if t.ignore || t.quant || strings.HasPrefix(t.key, "@") || slotEnds()[strings.ToLower(text[t.start:t.end])] {
				if len(s.words) == 0 && slotSkips()[t.key] || len(s.words) > 0 && t.key == "of" {
					if ends(t) {
						break
					}
					continue
				}
				break
			}
			if from < 0 {
				from = t.start
			}
			to = t.end
			s.words = append(s.words, t.key)
			if ends(t) {
				break
			}
		}
		if len(s.words) == 0 || len(s.words) > maxSlotWords || !plainWords(text[from:to]) {
			continue
		}
		s.text = text[from:to]
		k := [2]string{s.head, s.prep}
		seen[k]++
		out[k] = s
	}
	for k, n := range seen {
		if n > 1 {
			delete(out, k)
		}
	}
	return out
}

// compareSlots finds a place, doer or means named after the same word and
// preposition on both sides by words that share nothing, none of them
// said anywhere on the other side: "printed by the security guard" →
// "printed by the host employee", "handed over at the estate office" →
// "handed over at the concierge desk". Another person, place or means
// fills the same slot of the rule. Words near in meaning or shortened
// ("vet" for "veterinarian") fill it alike, and each side names it in two
// words at least: one word for another is as often the same thing
// ("webcam" and "camera", "appliance" and "washing machine").
func compareSlots(a, b *side) []string {
	sa, sb := slotsOf(a.text, a.toks), slotsOf(b.text, b.toks)
	if len(sa) == 0 || len(sb) == 0 {
		return nil
	}
	says := func(ts []surfaceTok, w string) bool {
		return slices.ContainsFunc(ts, func(t surfaceTok) bool { return sameWord(t.key, w) })
	}
	var out []string
	for k, x := range sa {
		y, ok := sb[k]
		switch {
		case ok:
		case k[1] == "by":
			// "allocated by the principal scientist" → "the chief
			// officer allocates": the doer said the other way.
			y, ok = sb[[2]string{k[0], "@doer"}]
		case k[1] == "@doer":
			y, ok = sb[[2]string{k[0], "by"}]
		}
		if !ok || len(x.words) < 2 || len(y.words) < 2 || !nothingShared(x.words, y.words) {
			continue
		}
		if slices.ContainsFunc(x.words, func(w string) bool { return says(b.toks, w) }) ||
			slices.ContainsFunc(y.words, func(w string) bool { return says(a.toks, w) }) {
			continue // said elsewhere: moved, not swapped
		}
		if spelled(x.text, y.text) || spelled(y.text, x.text) {
			continue
		}
		out = append(out, x.text+" → "+y.text)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// plainWords reports whether s is words of prose, not of code or markup:
// "AuthGate.kt", "AUTO_LOCK", "`errors.Wrap`" name no doer or place.
func plainWords(s string) bool {
	return !strings.ContainsAny(strings.TrimRight(s, ",;.:!?)"), "_.`=/:(){}[]<>#@*|")
}
