package gating

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/parleyhq/parley/internal/clip"
	"github.com/parleyhq/parley/vocab"
)

// featureKind says when a feature counts as a cue that fired.
type featureKind uint8

const (
	// kindCount features are counts or densities of matched phrases: they
	// fire when non-zero, with the phrases as their text.
	kindCount featureKind = iota
	// kindFlag features are 0 or 1: they fire when 1.
	kindFlag
	// kindScalar features always have a value (lengths, readability,
	// confidences): they fire when they move the score noticeably.
	kindScalar
)

// The features, in the order of a feature vector. The names are part of the
// model file's contract: renaming one invalidates the embedded model.
const (
	FWords = iota
	FSentences
	FMeanSentenceLength
	FLongSentenceShare
	FFinalAnswerWords
	FFleschReadingEase
	FColemanLiau
	FHedgeDensity
	FModalDensity
	FBoosterDensity
	FContrastDensity
	FFirstPersonUncertainty
	FFirstPersonCertainty
	FQuestions
	FConditionals
	FUnknownMarkers
	FReversalMarkers
	FAlternatives
	FCommitment
	FAnswerFlip
	FAnswerChange
	FSilentAnswerChange
	FFinalAnswerMissing
	FFinalAnswerHedged
	FInitialConfidence
	FFinalConfidence
	FConfidenceGap
	FConfidenceMissing
	FConfidenceHigh
	FConfidenceHedgeMismatch
	FEvidenceRefs
	FEvidenceMissing
	FVerifyWithoutEvidence
	FChecksStated
	FEvidenceSpecificity
	FNumbers
	FSettledDoubts
	FUncheckedConfidence
	FFailureReports
	FDismissals
	FFailureOverruled
	FSelfContradiction
	FLayerPlan
	FLayerVerify
	FLayerMissing
	NumFeatures
)

type featureDef struct {
	name string
	kind featureKind
	doc  string
}

var featureDefs = [NumFeatures]featureDef{
	FWords:                   {"words", kindScalar, "ln(1 + words) of the analysed text (reasoning, critique, final answer; quotes and code excluded; a unit said three or more times back to back counts once)"},
	FSentences:               {"sentences", kindScalar, "ln(1 + sentences)"},
	FMeanSentenceLength:      {"mean_sentence_length", kindScalar, "words per sentence"},
	FLongSentenceShare:       {"long_sentence_share", kindScalar, "share of sentences longer than 25 words"},
	FFinalAnswerWords:        {"final_answer_words", kindScalar, "ln(1 + words) of the final answer"},
	FFleschReadingEase:       {"flesch_reading_ease", kindScalar, "Flesch reading ease, 206.835 − 1.015·words/sentence − 84.6·syllables/word, clamped to [-50, 150]"},
	FColemanLiau:             {"coleman_liau", kindScalar, "Coleman–Liau index, 0.0588·L − 0.296·S − 15.8, clamped to [-10, 40]"},
	FHedgeDensity:            {"hedge_density", kindCount, "hedges per 100 words (probably, seems, I think, not sure, not unlikely …); hedge words used descriptively and doubts settled by a check do not count"},
	FModalDensity:            {"modal_density", kindCount, "modal hedges per 100 words (might, may, could, would); \"may retry up to 3 times\" and settled doubts do not count"},
	FBoosterDensity:          {"booster_density", kindCount, "boosters per 100 words (clearly, definitely, no doubt, verified …)"},
	FContrastDensity:         {"contrast_density", kindCount, "contrast and turn markers per 100 words (but, however, on the other hand …)"},
	FFirstPersonUncertainty:  {"first_person_uncertainty", kindCount, "ln(1 + first-person hesitations: I think, I'm not sure, we haven't tested …)"},
	FFirstPersonCertainty:    {"first_person_certainty", kindCount, "ln(1 + first-person certainties and checks: I'm confident, I checked, I ran …)"},
	FQuestions:               {"questions", kindCount, "ln(1 + sentences ending in a question mark)"},
	FConditionals:            {"conditionals", kindCount, "ln(1 + conditionals: if, unless, depends on …)"},
	FUnknownMarkers:          {"unknown_markers", kindCount, "ln(1 + unknown/TBD markers: TBD, TODO, unclear, unverified, not tested …); \"unknown fields are refused\" does not count"},
	FReversalMarkers:         {"reversal_markers", kindCount, "ln(1 + reversals: on second thought, I was wrong, scratch that …)"},
	FAlternatives:            {"alternatives", kindCount, "ln(1 + unresolved alternatives: either, trade-off, it depends …)"},
	FCommitment:              {"commitment", kindCount, "ln(1 + commitments: I recommend, therefore, the answer is …)"},
	FAnswerFlip:              {"answer_flip", kindFlag, "1 when the final answer reverses the initial one (yes/no or polarity differs, or they share under half their content words)"},
	FAnswerChange:            {"answer_change", kindScalar, "1 − the overlap coefficient of the initial and final answers' content words (0 when either is missing)"},
	FSilentAnswerChange:      {"silent_answer_change", kindFlag, "1 when the final answer differs from the initial one (reversed, or under half their content words shared) and the text never says it changed it"},
	FFinalAnswerMissing:      {"final_answer_missing", kindFlag, "1 when there is no final answer"},
	FFinalAnswerHedged:       {"final_answer_hedged", kindFlag, "1 when the final answer itself hedges or leaves something unknown"},
	FInitialConfidence:       {"initial_confidence", kindScalar, "stated initial confidence (0 when missing; the final one when only it is stated)"},
	FFinalConfidence:         {"final_confidence", kindScalar, "stated final confidence (0 when missing; the initial one when only it is stated)"},
	FConfidenceGap:           {"confidence_gap", kindScalar, "final − initial confidence (0 unless both are stated)"},
	FConfidenceMissing:       {"confidence_missing", kindFlag, "1 when no confidence is stated"},
	FConfidenceHigh:          {"confidence_high", kindFlag, "1 when the stated confidence is at least 0.8"},
	FConfidenceHedgeMismatch: {"confidence_hedge_mismatch", kindScalar, "stated confidence × min(1, hesitation cues / 3): high confidence said in hedged words"},
	FEvidenceRefs:            {"evidence_refs", kindCount, "ln(1 + evidence refs: the evidence_refs field plus paths, [[pages]] and URLs in the text)"},
	FEvidenceMissing:         {"evidence_missing", kindFlag, "1 when no evidence is cited at all (no refs, no specific evidence)"},
	FVerifyWithoutEvidence:   {"verify_without_evidence", kindFlag, "1 when a verify-layer critique cites no evidence"},
	FChecksStated:            {"checks_stated", kindCount, "ln(1 + checks the agent says it made: I ran, re-read, traced, compared … (\"haven't run\" is an unknown marker instead))"},
	FEvidenceSpecificity:     {"evidence_specificity", kindCount, "ln(1 + specific evidence: file:line refs, test names, commands run, command output, counts and measurements)"},
	FNumbers:                 {"numbers", kindCount, "ln(1 + numbers written outside the specific evidence)"},
	FSettledDoubts:           {"settled_doubts", kindCount, "ln(1 + doubts raised and then settled by a stated check in the same sentence or within the next three, not reopened by a hedge right after)"},
	FUncheckedConfidence:     {"unchecked_confidence", kindFlag, "1 when the text is sure (confidence ≥ 0.8, boosters, I'm certain) but names no check: no evidence ref, no specific result, no settled doubt"},
	FFailureReports:          {"failure_reports", kindCount, "ln(1 + failures reported: fails, panics, flaky, timed out, still reproduces …; \"no failures\" does not count)"},
	FDismissals:              {"dismissals", kindCount, "ln(1 + phrases that wave evidence away or stand in for a check: close enough, probably noise, trust me, everyone knows …)"},
	FFailureOverruled:        {"failure_overruled", kindFlag, "1 when a reported failure (not placed before the change, not asked about) stands in a text that still gives a success verdict (passes, works, fixed, all good, LGTM) and never says it now passes"},
	FSelfContradiction:       {"self_contradiction", kindCount, "ln(1 + statements asserted with both polarities: X is safe … X is not safe)"},
	FLayerPlan:               {"layer_plan", kindFlag, "1 for a plan-layer question"},
	FLayerVerify:             {"layer_verify", kindFlag, "1 for a verify-layer question"},
	FLayerMissing:            {"layer_missing", kindFlag, "1 when the layer is not stated"},
}

// FeatureNames returns the feature names in vector order.
func FeatureNames() []string {
	n := make([]string, NumFeatures)
	for i, d := range featureDefs {
		n[i] = d.name
	}
	return n
}

// FeatureDoc returns what the named feature measures, or "".
func FeatureDoc(name string) string {
	for _, d := range featureDefs {
		if d.name == name {
			return d.doc
		}
	}
	return ""
}

// Features is the feature vector of one self-critique, with what fired
// each feature. It is not safe for concurrent mutation.
type Features struct {
	Values [NumFeatures]float64
	a      *analysis
	sc     *SelfCritique
	spans  [NumFeatures][]span
	layer  vocab.Layer
}

// Extract computes the features of sc. It does not validate sc; Parse
// and Gate.Decide do.
func Extract(sc SelfCritique) *Features {
	f := &Features{sc: &sc, layer: sc.Layer}
	a := analyse(&sc)
	f.a = a
	v := &f.Values
	words := float64(a.words)
	per100 := func(n int) float64 {
		if a.words == 0 {
			return 0
		}
		return 100 * float64(n) / words
	}
	ln := func(n int) float64 { return math.Log1p(float64(n)) }

	v[FWords] = ln(a.words)
	v[FSentences] = ln(a.sentences)
	if a.sentences > 0 {
		v[FMeanSentenceLength] = words / float64(a.sentences)
		v[FLongSentenceShare] = float64(a.longSentences) / float64(a.sentences)
	}
	v[FFinalAnswerWords] = ln(a.finalWords)
	if a.words > 0 && a.sentences > 0 {
		w, s := words, float64(a.sentences)
		v[FFleschReadingEase] = clamp(206.835-1.015*(w/s)-84.6*(float64(a.syllables)/w), -50, 150)
		v[FColemanLiau] = clamp(0.0588*(100*float64(a.letters)/w)-0.296*(100*s/w)-15.8, -10, 40)
	}

	hedges := a.hits[clHedge]
	f.spans[FHedgeDensity] = hedges
	v[FHedgeDensity] = per100(len(hedges))
	f.spans[FModalDensity] = a.hits[clModal]
	v[FModalDensity] = per100(len(a.hits[clModal]))
	f.spans[FBoosterDensity] = a.hits[clBooster]
	v[FBoosterDensity] = per100(len(a.hits[clBooster]))
	f.spans[FContrastDensity] = a.hits[clContrast]
	v[FContrastDensity] = per100(len(a.hits[clContrast]))
	f.spans[FFirstPersonUncertainty] = a.fpu
	v[FFirstPersonUncertainty] = ln(len(a.fpu))
	f.spans[FFirstPersonCertainty] = a.fpc
	v[FFirstPersonCertainty] = ln(len(a.fpc))
	f.spans[FQuestions] = a.questions
	v[FQuestions] = ln(len(a.questions))
	f.spans[FConditionals] = a.hits[clConditional]
	v[FConditionals] = ln(len(a.hits[clConditional]))
	f.spans[FUnknownMarkers] = a.hits[clUnknown]
	v[FUnknownMarkers] = ln(len(a.hits[clUnknown]))
	f.spans[FReversalMarkers] = a.hits[clReversal]
	v[FReversalMarkers] = ln(len(a.hits[clReversal]))
	f.spans[FAlternatives] = a.hits[clAlternative]
	v[FAlternatives] = ln(len(a.hits[clAlternative]))
	f.spans[FCommitment] = a.hits[clCommitment]
	v[FCommitment] = ln(len(a.hits[clCommitment]))
	f.spans[FFailureReports] = a.hits[clFailure]
	v[FFailureReports] = ln(len(a.hits[clFailure]))
	f.spans[FDismissals] = a.hits[clDismissal]
	v[FDismissals] = ln(len(a.hits[clDismissal]))
	f.spans[FFailureOverruled] = a.overruled
	v[FFailureOverruled] = flag(len(a.overruled) > 0)
	f.spans[FEvidenceSpecificity] = a.specific
	v[FEvidenceSpecificity] = ln(len(a.specific))
	f.spans[FChecksStated] = a.checks
	v[FChecksStated] = ln(len(a.checks))
	f.spans[FNumbers] = a.numbers
	v[FNumbers] = ln(len(a.numbers))
	f.spans[FSettledDoubts] = a.settled
	v[FSettledDoubts] = ln(len(a.settled))

	// Answers.
	ini, fin := strings.TrimSpace(sc.InitialAnswer), strings.TrimSpace(sc.FinalAnswer)
	v[FFinalAnswerMissing] = flag(fin == "")
	if ini != "" && fin != "" {
		overlap, flipped := compareAnswers(ini, fin)
		v[FAnswerChange] = 1 - overlap
		v[FAnswerFlip] = flag(flipped)
		v[FSilentAnswerChange] = flag((flipped || overlap < 0.5) && !a.acknowledged())
	}
	fr := a.fields[fieldFinal]
	for _, c := range []class{clHedge, clModal, clUnknown} {
		for _, s := range a.hits[c] {
			if s.start >= fr.start && s.end <= fr.end {
				f.spans[FFinalAnswerHedged] = append(f.spans[FFinalAnswerHedged], s)
			}
		}
	}
	v[FFinalAnswerHedged] = flag(len(f.spans[FFinalAnswerHedged]) > 0)

	// Confidences.
	stated, ok := sc.Confidence()
	switch {
	case sc.InitialConfidence != nil && sc.FinalConfidence != nil:
		v[FInitialConfidence], v[FFinalConfidence] = *sc.InitialConfidence, *sc.FinalConfidence
		v[FConfidenceGap] = *sc.FinalConfidence - *sc.InitialConfidence
	case ok:
		v[FInitialConfidence], v[FFinalConfidence] = stated, stated
	}
	v[FConfidenceMissing] = flag(!ok)
	v[FConfidenceHigh] = flag(ok && stated >= RulesMinConfidence)
	hes := hesitations(a)
	if ok {
		v[FConfidenceHedgeMismatch] = stated * math.Min(1, float64(hes)/3)
	}

	// Evidence.
	nrefs := len(sc.EvidenceRefs) + len(a.refs)
	f.spans[FEvidenceRefs] = a.refs
	v[FEvidenceRefs] = ln(nrefs)
	v[FEvidenceMissing] = flag(nrefs == 0 && len(a.specific) == 0)
	v[FVerifyWithoutEvidence] = flag(nrefs == 0 && len(a.specific) == 0 && sc.Layer == vocab.LayerVerify)
	sure := ok && stated >= RulesMinConfidence || len(a.hits[clBooster]) > 0
	if sure && nrefs == 0 && len(a.specific) == 0 && len(a.settled) == 0 && len(a.numbers) < 2 {
		v[FUncheckedConfidence] = 1
		f.spans[FUncheckedConfidence] = a.hits[clBooster]
	}
	f.spans[FSelfContradiction] = a.contra
	v[FSelfContradiction] = ln(len(a.contra))

	v[FLayerPlan] = flag(sc.Layer == vocab.LayerPlan)
	v[FLayerVerify] = flag(sc.Layer == vocab.LayerVerify)
	v[FLayerMissing] = flag(sc.Layer == "")
	return f
}

// hesitations counts the uncertainty markers of the seed's rule: hedges
// (negated boosters included), modal hedges and unknown markers. First-
// person uncertainty is a hedge or unknown marker already.
func hesitations(a *analysis) int {
	return len(a.hits[clHedge]) + len(a.hits[clModal]) + len(a.hits[clUnknown])
}

func flag(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func clamp(v, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, v)) }

// Value returns the named feature's value and whether the name is known.
func (f *Features) Value(name string) (float64, bool) {
	for i, d := range featureDefs {
		if d.name == name {
			return f.Values[i], true
		}
	}
	return 0, false
}

// Fired reports whether feature i counts as a cue by its kind alone (a
// non-zero count or a set flag); scalar features are judged by the gate.
func (f *Features) Fired(i int) bool {
	switch featureDefs[i].kind {
	case kindCount, kindFlag:
		return f.Values[i] != 0
	}
	return false
}

// Text returns the text that fired feature i: the matched phrases (each
// with its negator and first-person subject), or a description of the value
// for features that do not match phrases.
func (f *Features) Text(i int) string {
	if i == FEvidenceRefs && len(f.sc.EvidenceRefs) > 0 {
		// A ref both listed and cited in the text is shown once (it
		// counts in both places).
		parts := append([]string(nil), f.sc.EvidenceRefs...)
		for _, s := range f.spans[i] {
			if ref := f.a.doc[s.start:s.end]; !slices.Contains(parts, ref) {
				parts = append(parts, ref)
			}
		}
		return clip.Line(strings.Join(parts, "; "), 201)
	}
	if i == FUncheckedConfidence {
		var parts []string
		for _, s := range f.spans[i] {
			parts = append(parts, clip.Line(f.a.doc[s.start:s.end], 61))
		}
		if _, ok := f.sc.Confidence(); ok {
			parts = append(parts, confidenceText(f.sc))
		}
		return strings.Join(append(parts, "no check named"), "; ")
	}
	if sp := f.spans[i]; len(sp) > 0 {
		const maxShown = 8
		var b strings.Builder
		for k, s := range sp {
			if k == maxShown {
				fmt.Fprintf(&b, "; … (%d more)", len(sp)-maxShown)
				break
			}
			if k > 0 {
				b.WriteString("; ")
			}
			b.WriteString(clip.Line(f.a.doc[s.start:s.end], 121))
		}
		return b.String()
	}
	sc := f.sc
	switch i {
	case FAnswerFlip, FAnswerChange:
		return fmt.Sprintf("initial %q → final %q", clip.Line(sc.InitialAnswer, 61), clip.Line(sc.FinalAnswer, 61))
	case FFinalAnswerMissing:
		return "no final answer"
	case FInitialConfidence, FFinalConfidence, FConfidenceGap, FConfidenceHigh, FConfidenceHedgeMismatch:
		return confidenceText(sc)
	case FConfidenceMissing:
		return "no confidence stated"
	case FEvidenceMissing, FVerifyWithoutEvidence:
		if sc.Layer != "" {
			return "no evidence refs or specific results (layer " + string(sc.Layer) + ")"
		}
		return "no evidence refs or specific results"
	case FSilentAnswerChange:
		return fmt.Sprintf("initial %q → final %q, no word of a change", clip.Line(sc.InitialAnswer, 61), clip.Line(sc.FinalAnswer, 61))
	case FLayerPlan, FLayerVerify:
		return "layer " + string(f.layer)
	case FLayerMissing:
		return "no layer stated"
	case FWords, FSentences, FMeanSentenceLength, FLongSentenceShare, FFinalAnswerWords:
		return fmt.Sprintf("%d words in %d sentences", f.a.words, f.a.sentences)
	case FFleschReadingEase, FColemanLiau:
		return fmt.Sprintf("%s %.1f", featureDefs[i].name, f.Values[i])
	}
	return ""
}

func confidenceText(sc *SelfCritique) string {
	var parts []string
	if sc.InitialConfidence != nil {
		parts = append(parts, "initial_confidence "+strconv.FormatFloat(*sc.InitialConfidence, 'g', -1, 64))
	}
	if sc.FinalConfidence != nil {
		parts = append(parts, "final_confidence "+strconv.FormatFloat(*sc.FinalConfidence, 'g', -1, 64))
	}
	if len(parts) == 0 {
		return "no confidence stated"
	}
	return strings.Join(parts, ", ")
}

// compareAnswers returns the overlap coefficient of the answers' content
// words and whether the final answer reverses the initial one.
func compareAnswers(ini, fin string) (overlap float64, flipped bool) {
	a, b := answerWords(ini), answerWords(fin)
	if len(a.words) > 0 && len(b.words) > 0 {
		common := 0
		for _, w := range a.words {
			if slices.Contains(b.words, w) {
				common++
			}
		}
		overlap = float64(common) / float64(min(len(a.words), len(b.words)))
	} else if len(a.words) == 0 && len(b.words) == 0 {
		overlap = 1
	}
	switch {
	case a.yesNo != "" && b.yesNo != "":
		flipped = a.yesNo != b.yesNo
	case a.negated != b.negated:
		flipped = true
	case len(a.numbers) > 0 && len(b.numbers) > 0 && !slices.ContainsFunc(a.numbers, func(n string) bool { return slices.Contains(b.numbers, n) }):
		// "at most 1,000 rows" → "at most 500 rows": the words agree, the
		// figure does not.
		flipped = true
	default:
		flipped = overlap < 0.5
	}
	return overlap, flipped
}

// answerNumbers returns the numbers an answer states, digit groups joined
// ("1,000" and "1000" are one number), with a unit written onto them kept
// ("30s").
func answerNumbers(m string) []string {
	var out []string
	for i := 0; i < len(m); i++ {
		if m[i] < '0' || m[i] > '9' || i > 0 && isIdentByte(m[i-1]) {
			continue
		}
		var b strings.Builder
		j := i
		for j < len(m) {
			c := m[j]
			switch {
			case c >= '0' && c <= '9' || c >= 'a' && c <= 'z':
				b.WriteByte(c)
			case (c == ',' || c == '.') && j+1 < len(m) && m[j+1] >= '0' && m[j+1] <= '9':
				if c == '.' {
					b.WriteByte(c)
				}
			default:
				goto done
			}
			j++
		}
	done:
		if n := b.String(); !slices.Contains(out, n) {
			out = append(out, n)
		}
		i = j
	}
	return out
}

type answerSummary struct {
	words   []string // distinct stemmed content words
	yesNo   string   // "yes", "no" or "" for the answer's leading word
	negated bool     // the first clause has a negator
	numbers []string // the numbers stated (answerNumbers)
}

// answerWords splits an answer into lower-case words (letters, digits,
// inner apostrophes and hyphens); a comma, semicolon, colon or full stop
// ends its first clause.
func answerWords(s string) answerSummary {
	var sum answerSummary
	low := []byte(s)
	lowerASCII(low)
	m := string(low)
	sum.numbers = answerNumbers(m)
	first, n := true, 0
	for i := 0; i < len(m); {
		r, size := utf8.DecodeRuneInString(m[i:])
		if !isWordRune(r) {
			if strings.IndexByte(",;:.!?", m[i]) >= 0 {
				first = false
			}
			i += size
			continue
		}
		start := i
		for i < len(m) {
			r, size := utf8.DecodeRuneInString(m[i:])
			if isWordRune(r) || (r == '\'' || r == '-') && i+1 < len(m) && isWordByte(low, i+1) {
				i += size
				continue
			}
			break
		}
		w := m[start:i]
		n++
		if n == 1 && (w == "yes" || w == "no") {
			sum.yesNo = w
			continue
		}
		if isNegator(w) {
			sum.negated = sum.negated || first
			continue
		}
		if !stopwords()[w] && (w[0] < '0' || w[0] > '9') { // numbers are compared on their own
			if w = stem(w); !slices.Contains(sum.words, w) {
				sum.words = append(sum.words, w)
			}
		}
	}
	return sum
}
