package consensus

import "testing"

// TestMeaningAgents10 runs the tenth set: questions in the voices of LLM
// coding agents (framing, hedges, markdown, rules given as config values
// or code comments, numbered plan steps, topics as questions or task
// titles), about records of its own, committed before any change made for
// agent wording.
func TestMeaningAgents10(t *testing.T) {
	t.Parallel()
	f := runMeaning(t, "testdata/meaning/agents10.txt")
	f.log(t, "tenth (agents) set")
	// Measured before any change made for agent wording: consistent 0.58
	// (28/48), conflict 0.65 (34/52), none 1.00 (20/20), paraphrases
	// answered conflict 0.25 (12/48), 9 answers unclear; reworded
	// questions found 68/75 (TestTopicFound). After the question was read
	// as the words it says (voice.go): consistent 0.71 (34/48), conflict
	// 0.65 (34/52), none 1.00, paraphrases answered conflict 0.19 (9/48),
	// 7 unclear. Most misses left are comparisons (a frequency said in
	// other words, "instead of" and "rather than", a scope widened by
	// "every") and task titles whose record is not found. With the
	// comparison of the eighth round merged: 0.56 (27/48), 0.65, 1.00,
	// 0.27, 9 unclear without reading the voice, and 0.65 (31/48), 0.65
	// (34/52), 1.00, 0.25 (12/48), 8 unclear with it (two agreeing
	// rewordings that read as consistent before now differ on "fifth",
	// one on "every job"). Guard against falling below that.
	f.guard(t, "tenth (agents)", "last measurement", 0.64, 0.65, 0.99, 0.25)
}

// TestMeaningAgents10Check runs the check set written with agents10.txt in
// other agent voices (JSON and YAML snippets, commit-message topics,
// checklists, narration) and kept out of view while the changes for agent
// wording were made.
func TestMeaningAgents10Check(t *testing.T) {
	t.Parallel()
	f := runMeaning(t, "testdata/meaning/agents10-check.txt")
	f.log(t, "tenth (agents) check set")
	// Measured before any change made for agent wording (summary line
	// only): consistent 0.36 (4/11), conflict 0.94 (15/16), none 1.00
	// (5/5), paraphrases answered conflict 0.45 (5/11), 1 answer unclear;
	// reworded questions found 16/18. After the changes for agent wording
	// (the miss lines of a failing run were seen, twice, by mistake;
	// nothing was changed for them): consistent 0.36, conflict 0.88
	// (14/16), none 1.00, paraphrases answered conflict 0.45, 2 unclear.
	// The conflict lost is "SameSite=None" asked against "SameSite=Lax",
	// now answered unclear ("Lax → None"): the key read as "same site"
	// leaves too little to tell. With the comparison of the eighth round
	// merged: 0.45 (5/11), 0.94 (15/16), 1.00, 0.36 without reading the
	// voice; 0.45 (5/11), 0.88 (14/16), 1.00, 0.36 (4/11), 2 unclear with
	// it. Guard against falling below that.
	f.guard(t, "tenth (agents) check", "held-out measurement", 0.45, 0.87, 0.99, 0.37)
}
