package consensus

import (
	"maps"
	"slices"
	"strings"
	"sync"
)

// The curated word lists that lookup by meaning rests on. They are plain
// text, one group per line, so that they read (and grow) like the lists
// they are; lexicon parses them on first use.

// lexiconVersion names the state of these lists and of the analysis that
// reads them. The lookup index stores each topic's analysed words, so a
// change here that changes any analysis must change lexiconVersion: an
// index of another version is rebuilt from the vault.
const lexiconVersion = "134"

// synonymGroups: each line is one meaning; the first word is the form every
// other is folded into. Words are written before stemming and may be
// phrases of up to four words ("time to live"). Only words that mean the
// same thing in a software decision belong on one line: "format" and
// "type" do not (a file type is not a serialisation format).
const synonymGroups = `
fifo first_in_first_out
fefo first_expiry_first_out first_expired_first_out first_expiring_first_out
lifo last_in_first_out
use employ adopt utilise utilize pick choose go_with standardise_on standardize_on rely_on opt_for
serve deliver return send emit respond_with hand_out give
store save persist keep write_to storage retention retain keep_for retain_for hold_on_to
delete remove purge erase wipe
fetch retrieve load read pull
create add generate
update modify change edit alter upgrade
forbid prohibit ban disallow
require mandate enforce demand must_pass must_have need_to_pass mandatory compulsory obligatory obliged obligated
allow permit let enable_for
reject refuse decline
accept take admit
limit cap throttle ceiling bound quota
plusminus tolerance give_or_take
retry reattempt retries redo
request call query req
response reply answer
square sq
timeout time_out deadline time_limit
duration how_long how_much_time length_of_time window time_window length long
ttl time_to_live expiry expiration lifetime expire live valid validity good_for
cache caching memoize
database db datastore data_store
postgresql postgres pg
mysql mariadb
mongodb mongo
kubernetes k8s
javascript js
typescript ts
authentication authn auth sign_in signin log_in login logon
authorization authz permission permissions access_control
password passphrase passwd pwd
user account member customer client_account viewer visitor end_user acct
administrator admin admins superuser operator
credential secret
token access_token bearer_token
api_key apikey api_keys
enable switch_on turn_on activate switched_on turned_on to_on
disable switch_off turn_off deactivate switched_off turned_off to_off
at_a_time
response_time time_to_respond time_to_acknowledge how_fast how_quickly turnaround how_soon
thumbnail thumb preview_image thumbnail_image
image picture img photo pic pics
browser user_agent web_browser
old older legacy outdated ancient
new newer modern recent current
fast quick rapid
slow sluggish
big large huge larger bigger
small tiny little
point points pts
error failure fault problem fail unsuccessful
break crash
job task work_item
queue backlog
message msg
notification alert notice
email e_mail mail
endpoint route api_route url_path
server backend back_end
frontend front_end ui user_interface client_side
documentation docs doc
medication meds medicine medicines
generator genny
kindergarten kindy
paediatric paeds pediatric paediatrics pediatrics
prescription rx
veterinary vet veterinarian vets
department dept
manager mgr
quantity qty
approximately approx
government govt
university uni
communication comms
specification specs spec
physiotherapy physio
laboratory lab
television tv telly
refrigerator fridge
bicycle bike
motorcycle motorbike
advertisement advert
examination exam
mathematics maths math
gymnasium gym
appointment appt
people ppl
management mgmt
amount amt
transaction txn
registered_nurse
emergency_department a_and_e emergency_room
configuration config conf config_file configuration_file
environment env
production prod
staging preprod pre_production
deploy deployment release rollout ship_to_production roll_out
rollback roll_back revert
version release_number
log logging logfile log_file
monitor monitoring observe observability
metric metrics measurement statistics stats
dashboard panel
backup back_up snapshot
restore recover
encrypt encryption encrypted cipher
hash hashing digest checksum
compress compression gzip_compress zip
upload upload_file
download
file document attachment paperwork
folder directory dir
payment charge billing
invoice
price cost pricing
discount coupon promo
stock inventory
decrease reduce lower drop cut shrink fall falling dropping
increase raise grow bump rise rising climb climbing
below under beneath less_than lower_than fewer_than smaller_than shorter_than colder_than cooler_than lighter_than cheaper_than
above over more_than greater_than exceed higher_than larger_than bigger_than longer_than in_excess_of beyond hotter_than warmer_than heavier_than dearer_than
low lowest cheapest cheap least_expensive
high highest priciest most_expensive
selfhost self_host self_hosted host_ourselves own_server
thirdparty third_party 3rd_party external_provider
os operating_system
order purchase
product item article sku
search lookup look_up find query_search
page webpage screen view
list listing
sort order_by rank
paginate pagination page_through
filter narrow
session
cookie
header
webhook web_hook callback_url
event
schedule cron cadence frequency how_often often
daily every_day each_day nightly every_night each_night once_a_day once_per_day once_daily
hourly every_hour each_hour
weekly every_week each_week once_a_week once_per_week
monthly every_month each_month once_a_month once_per_month
yearly annually every_year each_year annual once_a_year once_per_year
minute min mins minutes
second sec secs seconds
hour hr hrs hours
millisecond ms msec milliseconds
day days calendar_day
week weeks wk calendar_week
month months calendar_month
year years yr calendar_year
kg kilo kilos kilogram kilograms kilogramme kilogrammes
km kilometre kilometres kilometer kilometers kms
cm centimetre centimetres centimeter centimeters cms
mm millimetre millimetres millimeter millimeters
ml millilitre millilitres milliliter milliliters mls
metre metres meter meters
litre litres liter liters ltr
m2 square_metre square_metres square_meter square_meters sqm sq_m sq_metre sq_metres sq_meter sq_meters
ft2 square_foot square_feet sqft sq_ft sq_foot sq_feet
byte bytes
kilobyte kb kib kilobytes
megabyte mb mib megabytes
gigabyte gb gib gigabytes
terabyte tb tib terabytes
percent pct percentage per_cent %
quality q qual
width w_px how_wide
height h_px how_tall how_high
pixel px pixels
atmost max maximum at_most up_to no_longer_than not_longer_than no_more_than not_more_than upper_bound no_greater_than highest_allowed no_later_than not_later_than no_higher_than not_higher_than not_greater_than no_larger_than no_bigger_than not_exceeding capped_at capped_to limited_to not_to_exceed no_older_than not_older_than
atleast minimum no_earlier_than not_earlier_than no_sooner_than at_least no_less_than not_less_than no_fewer_than lower_bound and_later or_later and_newer or_newer and_above or_above or_higher and_up or_more and_more or_greater no_lower_than not_lower_than no_shorter_than not_fewer_than no_smaller_than no_younger_than
fallback fall_back
replace substitute swap_out
discard throw_away throw_out dispose_of thrown_away thrown_out
video_call by_video over_video
nolonger no_longer not_anymore not_any_longer
support supported handle handles
lack lacks lacking missing without_support unsupported cannot_handle no_support no_show noshow
2fa two_factor mfa multi_factor two_factor_authentication multi_factor_authentication 2_factor second_factor
ci continuous_integration
pr pull_request merge_request mr
repo repository
branch
main master trunk default_branch
commit
review code_review
approve sign_off approval
pass succeed green
always no_exception no_exceptions without_exception without_exceptions in_all_cases every_time each_time all_the_time around_the_clock day_or_night at_any_hour at_all_times any_time anytime
merge
squash
rebase
lint linter
format formatting
sign signature signed signing
handover hand_over handoff hand_off
optional voluntary nice_to_have up_to_the_team
usa united_states
lenient lax
concurrency concurrent concurrently in_parallel parallel parallelism simultaneously at_the_same_time simultaneous
before prior prior_to ahead_of in_advance_of
rfc3339 rfc_3339 iso8601 iso_8601
epoch unix_time unix_timestamp epoch_seconds unix_epoch
latest newest most_recent
oldest earliest
lowercase lower_case lowercased all_lowercase
uppercase upper_case uppercased all_caps capital_letters
cors cross_origin cross_origin_resource_sharing
golang go_lang
immutable write_once worm append_only
dependency dependencies dep deps library package_dependency
vendor vendoring
utc coordinated_universal_time gmt zulu
local_time own_timezone own_time_zone their_timezone their_own_timezone local_timezone in_local_time
malware virus viruses malicious_software
depth deep nesting_depth how_deep
timezone time_zone tz
timestamp time_stamp
date
id identifier identify identification
uuid guid uuidv4 uuid4 uuid_v4
primary_key pk
index indexes indices
replica read_replica secondary follower
primary leader master_node writer
shard partition
migration schema_change migrate
column field
table
row record_row
pool connection_pool
connection conn
thread
worker
container docker_container
image_tag tag_version
memory ram
cpu processor cpus
disk volume
bandwidth throughput
latency delay lag
uptime availability
incident outage
on_call pager oncall
alert_threshold threshold
rate
interval period
attempt try
backoff back_off
exponential exp
jitter randomisation randomization
idempotency idempotent idempotency_key
duplicate dupe
unique distinct
mobile phone smartphone
letter by_post
first_class 1st_class
second_class 2nd_class
desktop pc
app application
font typeface
color colour
dark_mode dark_theme night_mode
light_mode light_theme
tab tab_character
space space_character spaces
indent indentation
line_length line_width column_limit
comment code_comment
translation localization localisation i18n l10n
language locale
currency money
tax vat
refund chargeback_refund reimburse reimbursement
cart basket shopping_cart
checkout check_out
shipping delivery_cost postage
address
country
region
cdn content_delivery_network edge_cache
dns
tls ssl https_encryption
certificate cert
http plain_http
https secure_http
port
proxy reverse_proxy
load_balancer lb balancer
gateway api_gateway
feature_flag feature_toggle
experiment ab_test a_b_test split_test
analytics tracking telemetry
privacy
consent opt_in_consent
gdpr
archive archival cold_storage
audit audit_log audit_trail
report
export
import ingest
sync synchronous synchronously blocking_call
async asynchronous asynchronously background non_blocking bg
stream streaming
batch bulk batched
real_time realtime live_update
poll polling
push push_notification
reviewer approver
owner maintainer
team squad
meeting sync_meeting standup
sprint iteration
estimate estimation
deadline_date due_date
ticket issue bug_report
bug defect
feature capability
quantity how_many how_much number_of amount_of
override overrides take_precedence takes_precedence win_over wins_over supersede overrule trump
mtls mutual_tls mutual_tls_authentication client_certificate client_certificates
jwt json_web_token
environment_variable env_var envvar env_variable environment_var
lockfile lock_file
monorepo mono_repo single_repository one_repository
polyrepo multi_repo multirepo repo_per_service
acknowledge ack acknowledgement
p1 sev1 priority_1 priority_one severity_1
p2 sev2 priority_2 priority_two severity_2
p3 sev3 priority_3 priority_three severity_3
log_level verbosity logging_level
health_check healthcheck health_probe health_endpoint
object_storage s3 blob_storage object_store
local_disk local_filesystem local_storage
abort cancel kill terminate cancellation
consecutive in_a_row straight successive back_to_back
lock lockout lock_out
permanent forever indefinite for_good for_ever
immediately instantly right_away straight_away at_once
fix patch hotfix bugfix
vulnerability vuln cve security_issue security_hole
business_hours working_hours office_hours work_hours
weekday workday business_day working_day
monday mon
tuesday tue tues
wednesday wed weds
thursday thu thur thurs
friday fri
outgoing outbound egress
incoming inbound ingress
plain_text plaintext text_plain
artifact build_artifact
nodejs node_js node
display render show present
exempt exempted excepted
omit left_out leave_out leaves_out leaving_out
unlimited unbounded no_limit
evaluation eval evaluating evals
holdout hold_out held_out holdout_set
postmortem post_mortem post_incident_review incident_review incident_retrospective
equal same identical the_same_as equal_to
gpu gpus graphics_card
temperature temp
fly flight flies flying
calculation computation calculate compute
on_demand
household domestic residential
heartbeat keepalive keep_alive
translation internationalization internationalisation
accessibility a11y
development dev
performance perf
infrastructure infra
seller merchant
payout disbursement
skew drift
allow tolerate
signup sign_up registration
allowlist whitelist safelist allow_list
denylist blocklist blacklist deny_list block_list
near_miss close_call near_hit
rental_car hire_car car_rental car_hire
truck lorry
windshield windscreen
greenhouse glasshouse
gasoline petrol
highway motorway freeway
parking_lot car_park
zip_code postcode post_code postal_code
diaper nappy
stroller pushchair
trash rubbish garbage
trash_can dustbin wheelie_bin
license_plate number_plate
lawyer solicitor attorney
real_estate_agent estate_agent realtor
public_holiday bank_holiday
start begin commence
adult grown_up grownup grown_ups grownups
age how_old
size how_big how_large
distance how_far how_close how_far_away
weight how_heavy
close shut
regardless irrespective
`

// topicGroups: each line is one meaning in a topic (topicWords), its
// first word the form every other is folded into, as synonymGroups are.
// They are kept apart from synonymGroups so that the comparison of
// positions reads as before: a topic's "auto-retry" asks what "automatic
// retries" asks, and "O2 alarm levels" what "oxygen alarm levels" asks,
// while a position's wording is compared as written. A line of one word
// keeps the word as it is: the nouns in -tion that name no act of the
// word their letters would cut them down to (topicFold): "production" is
// no "product", a "portion" no "port", an "abortion" no cancelling.
// Written before stemming.
const topicGroups = `
automatic auto automatically automated
oxygen o2
methane ch4
ammonia nh3
nitrogen ln2
production
correction
distinction
objection
faction
contraction
abstraction
direction
portion
abortion
`

// comparisonSynonyms are synonym groups read as synonymGroups are, kept
// apart for the comparison of positions: language codes and the names
// they stand for ("EN subtitles", "English subtitles").
const comparisonSynonyms = `
english en eng
german de deu deutsch
french fr fra
spanish es spa
dutch nl
polish pl
swedish sv
danish da
finnish fi
japanese ja
chinese zh
korean ko
error red
local_time local
canada canadian
mexico mexican
before ahead beforehand in_advance
after afterwards afterward
until till
`

// genericWords carry little of what a question is about: a topic may add
// or drop them ("Retry policy for webhooks" asks what "How do we retry
// webhooks?" asks). Written after stemming and synonym folding.
const genericWords = `
policy strategy approach rule choice option method way management manag process behavior happen
behaviour plan decision guideline convention standard mode scheme mechanism practice procedure default duration period service
question topic thing stuff kind type matter case quantity at_a_time count amount layout structure setup true
look like happen handle deal treat work decide agree currently today yes nit follow accept allow support
value attribute parameter property target promise goal objective layer
ok okay fine alright data information info run
use make have get do need want go put let apply
we our us you your team everyone anyone people someone one
new current exist existing
should must shall will would could can may might ought need_to have_to
what which how when where why who whom whose
good best right proper correct recommended prefer preferred ideal
settings setting tuning knob lifecycle
all any every each some
also just only still even really actually
the a an
`

// alternativeGroups: each line names options of one choice. A position
// naming one of them and another naming a different one of the same line
// (and not the first) disagree: "WebP → AVIF", "ascending → descending".
// Written after stemming and synonym folding (canonical forms).
const alternativeGroups = `
webp jpeg png avif gif svg heic tiff bmp
postgresql mysql sqlite mongodb oracle sqlserver cassandra dynamodb cockroachdb redis memcached elasticsearch
json yaml xml protobuf csv toml msgpack avro parquet plain_text html
rest graphql grpc soap
north south east west
northern southern eastern western
uuid ulid serial snowflake nanoid
sha256 sha1 md5 sha512 blake2 blake3 bcrypt argon2 scrypt pbkdf2
rsa ecdsa ed25519
aws gcp azure
kafka rabbitmq nats sqs pubsub
golang rust python java javascript typescript ruby php kotlin swift
react vue angular svelte
tab space
utc local local_time
ascend descend
increase decrease
before after
atleast atmost
sync async
public private
internal external
client server
push poll
read write
allow forbid
accept reject
lazy eager
manual automatic
optional require
strict lenient
inclusive exclusive
selfhost thirdparty
first last
oldest latest
lowercase uppercase
immutable mutable
above below
more less
above below
long short
high low
fast slow
big small
soft hard
dark_mode light_mode
indoor outdoor
open enclosed
squash rebase merge
monorepo polyrepo
horizontal vertical
cookie localstorage sessionstorage
daily hourly weekly monthly yearly
http https
tcp udp
eu usa uk
rfc3339 epoch
ipv4 ipv6
linux windows macos
gzip brotli zstd
fifo fefo lifo
spa ssr ssg
pass error
english french german spanish italian portugues dutch chines japanes arabic russian polish welsh
email sm letter mobil in_person online video_call portal fax whatsapp
gross net
morning afternoon evening
refrigerated room_temperature frozen
cash cheque bank_transfer paypal card contactless
compost donate discard
summer winter autumn
male female
men women
boys girls
adult child
economy premium_economy business_class first_class second_class
`

// lightWords are words that rewording swaps freely ("wait 5 minutes",
// "after 5 minutes"; "billing runs on", "billing uses"): a swap of one of
// them is not a change of the rule. Written before stemming.
const lightWords = `consecutive wait after then via run go happen take mark flag set make get put give call aim target stay remain become
follow goes went come gets receive hold carry contain live show tell say mean apply work`

// relationalWords are the alternatives that relate two things: "x before
// y" says what "y after x" says.
const relationalWords = `before after above below more less`

// directedWords relate two things in one direction: "environment
// variables override the file" and "the file overrides environment
// variables" are two rules. Their passive ("overridden by") turns the
// things around.
const directedWords = `before after above below override replace fallback instead_of rather_than precede first later`

// insteadWords name what a rule does not do: "split by user rather than
// by row" does not split by row.
const insteadWords = `instead_of rather_than`

// looseGroups: each line holds words that are not synonyms everywhere but
// that rewording swaps for each other in a rule ("cache" and "keep" pages
// at the CDN, "show" and "render" dates): one swapped for another is not a
// change of the rule. Written before stemming.
const looseGroups = `
cache store keep hold retain save persist residency
serve send deliver return give respond emit reach provide
show display render present print output
reject refuse deny block forbid drop
expire stop_working invalidate end lapse
status http code status_code http_status
run execute perform do
check test verify validate confirm
write log record emit
accept take receive
create open start
delete close
stale old outdated
new fresh
connection pool connection_pool
timeout wait give_up
cutoff timeout
cutoff limit
app client application
format convention style standard encoding
incident outage alert page on_call
layout structure organisation organization monorepo polyrepo
strip clear remove wipe
record entry
scheduler orchestrator workflow_engine
pipeline job workflow
autocomplete suggestion typeahead autosuggest
schedule interval
loan borrow lend
altitude height high elevation
compensation pay paid salary wage remuneration
provider vendor supplier
reach talk_to talk communicate connect_to access
rail train
fee charge payment cost price
collect collection pick_up pickup
inspect inspection examine examination check
notify inform tell let_know
help assist
clean wash cleanse
dirty soiled filthy
torn ripped
broken damaged faulty defective
injury harm hurt
resident occupant
visitor guest
fill complete
appointment visit
allocation allocate allot assign
transfer pass_on
spacing gap interval
gp doctor
challenge appeal dispute
bounce returned_unpaid return_unpaid
grease lubricate
swap exchange
accompany escort
previous past prior
late delay overdue
time hour
fix repair mend
correction amend amendment fix
alarm alert
book reservation
whole full
`

// actionWords are the verbs of a rule: leaving one out of a list of
// clauses ("..., and keep every migration compatible") rewords the rule
// rather than dropping an item of it. Written before stemming.
const actionWords = `use serve store delete fetch create update forbid require allow reject accept retry run keep
send write read make give take put set apply start stop enable disable follow stay remain`

// monthNames and weekdayNames are the months and the days of the week,
// in full and lower case: the one list the readings that name them use.
const (
	monthNames   = "january february march april may june july august september october november december"
	weekdayNames = "monday tuesday wednesday thursday friday saturday sunday"
)

// negationCues turn the meaning of what follows them.
const negationCues = `not no never none nor neither nothing nobody nowhere cannot without nolonger`

// negativeVerbs are words that mean "not <canonical>": "disable" is "not
// enable". They are folded so that "disable caching" and "do not enable
// caching" say the same.
const negativeVerbs = `
disable=enable
disabled=enable
deactivate=enable
stop=continue
disallow=allow
deny=allow
unsupported=support
unset=set
exclude=include
skip=run
omit=include
avoid=use
unavailable=available
forbid=allow
closed=open
ignore=use
ignored=use
`

// conditionCues open a condition; exceptionCues an exception. The words
// after a cue up to the end of its clause are the condition.
const (
	conditionCues = `if when whenever while during provided_that as_long_as only_if only_when in_case so_long_as given_that assuming only_for only_during subject_to`
	// exemptCues close an exception that the words before them name
	// ("security fixes are exempt").
	exemptCues    = `exempt exempted excepted the_exception an_exception`
	exceptionCues = `unless except except_for except_when except_if other_than excluding apart_from but_not save_for with_the_exception_of not_including
	not_when not_if save_where save_when save_if save_that
	only_way_out_is_if only_way_out_is_when only_way_round_it_is_if only_way_round_it_is_when only_way_around_it_is_if only_way_around_it_is_when
	only_way_out_is_to only_way_round_it_is_to only_way_around_it_is_to`
)

// numberWords are the numbers written as words.
var numberWords = sync.OnceValue(func() map[string]float64 {
	return map[string]float64{
		"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
		"ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
		"seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
		"sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "dozen": 12, "single": 1, "twice": 2,
		"half": 0.5, "double": 2, "triple": 3, "once": 1, "thrice": 3, "first": 1, "third": 3,
		"doubles": 2, "doubled": 2, "triples": 3, "tripled": 3,
	}
})

var numberScales = sync.OnceValue(func() map[string]float64 {
	return map[string]float64{"hundred": 100, "thousand": 1000, "million": 1e6, "billion": 1e9}
})

// unit is what a number measures and how many base units one of it is.
type unit struct {
	dim   string  // time, bytes, percent, pixels
	scale float64 // in seconds, bytes, percent, pixels
}

// units are keyed by word (the lexicon keys them by canonical form).
var units = sync.OnceValue(func() map[string]unit {
	return map[string]unit{
		"millisecond": {"time", 0.001}, "second": {"time", 1}, "minute": {"time", 60}, "hour": {"time", 3600},
		"day": {"time", 86400}, "week": {"time", 7 * 86400}, "month": {"time", 365 * 86400 / 12}, "year": {"time", 365 * 86400},
		"decade": {"time", 10 * 365 * 86400}, "fortnight": {"time", 14 * 86400},
		"byte": {"bytes", 1}, "kilobyte": {"bytes", 1 << 10}, "megabyte": {"bytes", 1 << 20}, "gigabyte": {"bytes", 1 << 30},
		"terabyte": {"bytes", 1 << 40}, "percent": {"percent", 1}, "pixel": {"pixels", 1},
	}
})

// negatedBound turns a negated comparison into the bound it sets: "not
// more than" is "at most", "not under" is "at least". Canonical forms.
// Written before stemming.
var negatedBound = sync.OnceValue(func() map[string]string {
	return map[string]string{"above": "atmost", "below": "atleast", "atmost": "above", "atleast": "below"}
})

// periodWords are units of time that stand alone for "every one of them".
var periodWords = sync.OnceValue(func() map[string]string {
	return map[string]string{"daily": "day", "hourly": "hour", "weekly": "week", "monthly": "month", "yearly": "year", "fortnightly": "fortnight"}
})

// stopWords never carry meaning on their own. Negation and condition cues
// are not among them.
const stopWords = `a an the and or of to in on at by for from with into onto as is are was were be been being am do does did
doing done it its it's this that these those there here then now than so such very too also just please
we our us you your u ur they them their i me my he she his her him itself ourselves
should must shall will would could can may might ought need needs needed to have has had having
what which how why who whom whose where
let lets let's get gets got go goes going put puts make makes made
all any each every some
per via about approximately approx roughly circa up down between within out off again further more most other same own only both either
whatever whichever many much through throughout against everything everyone else back away once ever
anything something individual particular respective certain
s t d ll re ve m`

// stopHomographs are the stop words whose stem other words share:
// "canning" and "cans" are no "can", "willing" no "will", "owned" no
// "own". Only the stop word as written is dropped.
const stopHomographs = `can will may must might shall own back ought`

// lexicon is the parsed form of the lists above.
type lexicon struct {
	canon       map[string]string   // stemmed word or joined phrase → canonical
	phrases     map[string][]string // stemmed first word → stemmed phrases (joined by '_') starting with it
	maxWords    int
	generic     map[string]bool
	light       map[string]bool
	altGroup    map[string]int
	altPair     map[string]string // each option of a choice of two → the other ("accept", "reject")
	negCue      map[string]bool
	negVerb     map[string]string // stemmed negative verb → canonical positive
	condCue     map[string]string // cue (joined) → "if" or "unless"
	stop        map[string]bool
	stopWord    map[string]bool   // the stop words as written
	homograph   map[string]bool   // stemmed stopHomographs
	units       map[string]unit   // canonical unit word → unit
	period      map[string]string // canonical "daily" → canonical "day"
	loose       map[string][]int  // canonical word → its looseGroups lines
	exemptCue   map[string]bool   // canonical words that end an exception
	immediately string            // the canonical "immediately": after no time
	// relational are the alternatives that relate two things ("x before
	// y"): the other one with the things swapped says the same.
	relational map[string]bool
	directed   map[string]bool
	instead    map[string]bool
	action     map[string]bool
	minute     string            // the canonical "minute"
	quantity   string            // the canonical "how many"
	optional   string            // the canonical "optional"
	negBound   map[string]string // negatedBound in canonical forms
	topicCanon map[string]string // canonical word → its topicGroups canonical
	topicKept  map[string]bool   // the words of a topicGroups line of their own: kept as they are
}

// near reports whether two canonical words share a line of looseGroups.
func (lx *lexicon) near(a, b string) bool {
	for _, g := range lx.loose[a] {
		if slices.Contains(lx.loose[b], g) {
			return true
		}
	}
	return false
}

// negates reports whether the canonical word x says "not y": a negative
// verb of y ("disable" of "enable", "exclude" of "include") or the other
// option of a choice of two ("reject" of "accept").
func (lx *lexicon) negates(x, y string) bool {
	return x != "" && y != "" && (lx.negVerb[x] == y || lx.altPair[x] == y)
}

var theLexicon = sync.OnceValue(buildLexicon)

func buildLexicon() *lexicon {
	lx := &lexicon{canon: map[string]string{}, phrases: map[string][]string{}, generic: map[string]bool{}, light: nil,
		altGroup: map[string]int{}, altPair: map[string]string{}, negCue: map[string]bool{}, negVerb: map[string]string{}, condCue: map[string]string{}, stop: map[string]bool{},
		stopWord: map[string]bool{}, homograph: map[string]bool{}}
	addPhrase := func(p string) {
		words := strings.Split(p, "_")
		if len(words) < 2 {
			return
		}
		p = stemPhrase(p)
		first := stem(words[0])
		for _, have := range lx.phrases[first] {
			if have == p {
				return
			}
		}
		lx.phrases[first] = append(lx.phrases[first], p)
		lx.maxWords = max(lx.maxWords, len(words))
	}
	for _, line := range strings.Split(synonymGroups+"\n"+comparisonSynonyms, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		head := stemPhrase(f[0])
		for _, w := range f {
			addPhrase(w)
			lx.canon[stemPhrase(w)] = head
		}
	}
	for _, w := range strings.Fields(genericWords) {
		lx.generic[lx.fold(stemPhrase(w))] = true
	}
	lx.light = map[string]bool{}
	for _, w := range strings.Fields(lightWords) {
		lx.light[lx.fold(stem(w))] = true
	}
	for i, line := range strings.Split(alternativeGroups, "\n") {
		for _, w := range strings.Fields(line) {
			addPhrase(w) // "bank transfer", "room temperature": one option
			lx.altGroup[lx.fold(stemPhrase(w))] = i + 1
		}
		if ws := strings.Fields(line); len(ws) == 2 {
			x, y := lx.fold(stemPhrase(ws[0])), lx.fold(stemPhrase(ws[1]))
			lx.altPair[x], lx.altPair[y] = y, x
		}
	}
	for _, w := range strings.Fields(negationCues) {
		lx.negCue[w] = true
	}
	for _, line := range strings.Fields(negativeVerbs) {
		neg, pos, _ := strings.Cut(line, "=")
		lx.negVerb[stem(neg)] = lx.fold(stem(pos))
	}
	for _, w := range strings.Fields(conditionCues) {
		addPhrase(w)
		lx.condCue[stemPhrase(w)] = "if"
	}
	for _, w := range strings.Fields(exceptionCues) {
		addPhrase(w)
		lx.condCue[stemPhrase(w)] = "unless"
	}
	for _, w := range strings.Fields(stopWords) {
		lx.stop[stem(w)] = true
		lx.stopWord[w] = true
	}
	for _, w := range strings.Fields(stopHomographs) {
		lx.homograph[stem(w)] = true
	}
	lx.units = make(map[string]unit, len(units()))
	for w, u := range units() {
		lx.units[lx.fold(stem(w))] = u
	}
	lx.loose = map[string][]int{}
	for i, line := range strings.Split(looseGroups, "\n") {
		for _, w := range strings.Fields(line) {
			c := lx.fold(stemPhrase(w))
			if !slices.Contains(lx.loose[c], i) {
				lx.loose[c] = append(lx.loose[c], i)
			}
		}
	}
	lx.immediately = lx.fold(stem("immediately"))
	lx.exemptCue = map[string]bool{}
	for _, w := range strings.Fields(exemptCues) {
		addPhrase(w)
		lx.exemptCue[lx.fold(stemPhrase(w))] = true
	}
	lx.minute = lx.fold(stem("minute"))
	lx.quantity = lx.fold(stem("quantity"))
	lx.optional = lx.fold(stem("optional"))
	lx.negBound = map[string]string{}
	for k, v := range negatedBound() {
		lx.negBound[lx.fold(stem(k))] = lx.fold(stem(v))
	}
	lx.action = map[string]bool{}
	for _, w := range strings.Fields(actionWords) {
		lx.action[lx.fold(stem(w))] = true
	}
	lx.directed = map[string]bool{}
	for _, w := range strings.Fields(directedWords) {
		addPhrase(w)
		lx.directed[lx.fold(stemPhrase(w))] = true
	}
	lx.instead = map[string]bool{}
	for _, w := range strings.Fields(insteadWords) {
		lx.instead[lx.fold(stemPhrase(w))] = true
	}
	lx.relational = map[string]bool{}
	for _, w := range strings.Fields(relationalWords) {
		lx.relational[lx.fold(stemPhrase(w))] = true
	}
	lx.topicCanon, lx.topicKept = map[string]string{}, map[string]bool{}
	for _, line := range strings.Split(topicGroups, "\n") {
		f := strings.Fields(line)
		for _, w := range f {
			lx.topicCanon[lx.fold(stem(w))] = lx.fold(stem(f[0]))
		}
		if len(f) == 1 {
			lx.topicKept[lx.fold(stem(f[0]))] = true
		}
	}
	for _, w := range slices.Sorted(maps.Keys(lx.loose)) {
		// A word a topic reads as another (topicFold: "notify" as
		// "notification") is near what the word is near.
		if f := lx.topicFold(w); f != w {
			for _, g := range lx.loose[w] {
				if !slices.Contains(lx.loose[f], g) {
					lx.loose[f] = append(lx.loose[f], g)
				}
			}
		}
	}
	lx.period = make(map[string]string, len(periodWords()))
	for w, u := range periodWords() {
		lx.period[lx.fold(stem(w))] = lx.fold(stem(u))
	}
	return lx
}

// stemPhrase stems each word of a '_'-joined phrase.
func stemPhrase(p string) string {
	words := strings.Split(p, "_")
	for i, w := range words {
		words[i] = stem(w)
	}
	return strings.Join(words, "_")
}

// known reports whether the lexicon has a meaning for the folded word w:
// it heads a synonym group, names an option of a choice or a unit.
func (lx *lexicon) known(w string) bool {
	_, unit := lx.units[w]
	return lx.canon[w] != "" || lx.altGroup[w] > 0 || unit
}

// topicFold is the canonical form of a topic's canonical word w: the one
// topicGroups gives it, else the word of the act a derived noun names
// ("attendance" of "attend", "deductions" of "deducting", "promotion" of
// "promoting") and the noun of a verb in -ify ("notify" of
// "notification"), so that a topic may name the act either way. A generic
// word, one a looseGroups line already relates to its other forms
// ("inspection", "collection") and the words of a topicGroups line of
// their own keep their reading.
func (lx *lexicon) topicFold(w string) string {
	if c, ok := lx.topicCanon[w]; ok {
		return c
	}
	n := len(w)
	switch {
	case n-3 >= 5 && strings.HasSuffix(w, "anc") && !lx.generic[w] && !lx.generic[w[:n-3]] && lx.canon[w[:n-3]] == "":
		// "assistance", "attendance", "clearance" (stemmed "assistanc"):
		// not into a word of the lexicon ("acceptance" is no "accept").
		return w[:n-3]
	case n >= 5 && strings.HasSuffix(w, "ifi") && w != "certifi":
		// "notify", "verify" (stemmed "notifi"): their nouns; not
		// "certify", whose "certificate" is a document.
		return w + "cat"
	case n-3 >= 4 && strings.HasSuffix(w, "tion") && !strings.ContainsRune("ai", rune(w[n-5])) &&
		!lx.generic[w] && len(lx.loose[w]) == 0:
		// "deduction", "completion", "distribution" ("-ation" and
		// "-ition" are stemmed already).
		return w[:n-3]
	}
	return w
}

// topicKeeps reports whether a topic keeps the canonical word w as it is:
// a topicGroups line of its own ("production", "portion").
func (lx *lexicon) topicKeeps(w string) bool { return lx.topicKept[w] }

// fold is the canonical form of a stemmed word or phrase.
func (lx *lexicon) fold(w string) string {
	if c, ok := lx.canon[w]; ok {
		return c
	}
	return w
}
