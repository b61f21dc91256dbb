#!/usr/bin/env bash
# Regenerates the media of the demo store "Nordlys Living" into apps/server/demo/media/:
# the 60 s demo show (demo-show.mp4), three event covers, six product images and the logo.
#
# The outputs are committed, so this only needs to run when the artwork changes. Artwork is
# drawn as SVG and rasterised by ffmpeg's librsvg decoder, so the only tool needed is Debian's
# ffmpeg (built with librsvg and libx264) plus the Noto fonts (DejaVu is the fallback).
#
# The show is cut into 15 s segments that match the cue windows of the seed
# (apps/server/src/features/demo/seed-demo.ts): 0-15 s welcome, then Linen shirt, Ceramic mug
# and Wool scarf. A running m:ss clock, a segment progress bar and a chime at every cut make
# product cue sync checkable by eye and ear.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$ROOT/apps/server/demo/media"
FFMPEG="${FFMPEG:-ffmpeg}"
FFPROBE="${FFPROBE:-ffprobe}"

pick_font() {
  for candidate in "$@"; do
    if [[ -f "$candidate" ]]; then
      echo "$candidate"
      return
    fi
  done
  echo "no usable font among: $*" >&2
  exit 1
}
CLOCK_FONT="$(pick_font /usr/share/fonts/truetype/noto/NotoSans-Bold.ttf /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf)"
# librsvg resolves these through fontconfig; listing fallbacks keeps other machines working.
SANS="'Noto Sans', 'DejaVu Sans', sans-serif"
SERIF="'Noto Serif', 'DejaVu Serif', serif"

# Captured first: with pipefail, grep -q closing the pipe early would fail the check.
DECODERS="$("$FFMPEG" -hide_banner -decoders 2>/dev/null)"
if [[ "$DECODERS" != *librsvg* ]]; then
  echo "$FFMPEG cannot decode SVG (needs --enable-librsvg, as Debian's build has)" >&2
  exit 1
fi

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$OUT"

# Bit-exact flags keep regenerated files identical when nothing changed, so git stays quiet.
QUIET=(-hide_banner -loglevel error -y)
BITEXACT=(-map_metadata -1 -fflags +bitexact -flags:v +bitexact)

# render_jpeg <svg> <jpg> <qscale>: one JPEG frame from an SVG (qscale 2 = best, 31 = worst).
render_jpeg() {
  "$FFMPEG" "${QUIET[@]}" -f svg_pipe -i "$1" -frames:v 1 -pix_fmt yuvj420p -q:v "$3" "${BITEXACT[@]}" "$2"
}

# render_png <svg> <png>: a lossless still, used as a video segment backdrop.
render_png() {
  "$FFMPEG" "${QUIET[@]}" -f svg_pipe -i "$1" -frames:v 1 -pix_fmt rgb24 "$2"
}

# ---------------------------------------------------------------------------------------------
# Product illustrations: flat shapes in a 600x600 frame, art kept within y 60..450 so the
# product name fits underneath. Each prints an SVG fragment; its background is kept apart so
# the video can centre the art on a full background.

declare -A ART_BACKGROUND=(
  [art_linen_shirt]="#E3EAE2"
  [art_ceramic_mug]="#F4E7DB"
  [art_wool_scarf]="#EDE3D6"
  [art_oak_board]="#E5EBEE"
  [art_stoneware_vase]="#F2EDE5"
  [art_beeswax_candles]="#2F3A45"
)

# tile <art> [dy]: the art on its 600x600 background, shifted down by dy.
tile() {
  echo "<rect width=\"600\" height=\"600\" fill=\"${ART_BACKGROUND[$1]}\"/>"
  echo "<g transform=\"translate(0 ${2:-0})\">"
  "$1"
  echo '</g>'
}

art_linen_shirt() {
  cat <<'SVG'
<path d="M222 108 L165 128 L92 205 L140 262 L182 228 L182 448 L418 448 L418 228 L460 262 L508 205 L435 128 L378 108 Q300 140 222 108 Z"
      fill="#DCCAAA" stroke="#B49A73" stroke-width="5" stroke-linejoin="round"/>
<path d="M222 108 L262 178 L300 150 L338 178 L378 108 Q300 140 222 108 Z" fill="#CDB892" stroke="#B49A73" stroke-width="5" stroke-linejoin="round"/>
<line x1="300" y1="150" x2="300" y2="448" stroke="#B49A73" stroke-width="4"/>
<g fill="#F5EFE3" stroke="#B49A73" stroke-width="3">
  <circle cx="300" cy="205" r="7"/><circle cx="300" cy="265" r="7"/><circle cx="300" cy="325" r="7"/>
  <circle cx="300" cy="385" r="7"/>
</g>
<path d="M330 230 H382 V282 Q356 292 330 282 Z" fill="none" stroke="#B49A73" stroke-width="4" stroke-linejoin="round"/>
<g stroke="#B49A73" stroke-width="4" stroke-linecap="round">
  <line x1="102" y1="214" x2="148" y2="252"/><line x1="498" y1="214" x2="452" y2="252"/>
</g>
SVG
}

art_ceramic_mug() {
  cat <<'SVG'
<g fill="none" stroke="#C9B8A6" stroke-width="9" stroke-linecap="round">
  <path d="M238 150 q-18 -22 0 -44 q18 -22 0 -44"/><path d="M282 140 q-18 -22 0 -44 q18 -22 0 -44"/>
  <path d="M326 150 q-18 -22 0 -44 q18 -22 0 -44"/>
</g>
<ellipse cx="285" cy="432" rx="178" ry="20" fill="#DCC6B1"/>
<path d="M392 226 C478 226 478 372 392 372" fill="none" stroke="#B8603E" stroke-width="30" stroke-linecap="round"/>
<clipPath id="mug"><rect x="168" y="176" width="228" height="250" rx="30"/></clipPath>
<g clip-path="url(#mug)">
  <rect x="168" y="176" width="228" height="250" fill="#C96F4A"/>
  <path d="M168 176 H396 V236 Q378 258 358 236 Q336 270 312 236 Q290 256 268 236 Q244 274 220 236 Q196 256 168 236 Z" fill="#EFE3D3"/>
</g>
SVG
}

art_wool_scarf() {
  cat <<'SVG'
<rect x="130" y="104" width="340" height="14" rx="7" fill="#9C7656"/>
<circle cx="130" cy="111" r="14" fill="#8A664A"/><circle cx="470" cy="111" r="14" fill="#8A664A"/>
<rect x="214" y="90" width="172" height="44" rx="22" fill="#A44A34"/>
<rect x="216" y="112" width="82" height="296" fill="#B5523B"/>
<rect x="304" y="112" width="82" height="326" fill="#B95A42"/>
<g fill="#F1E6D6">
  <rect x="216" y="318" width="82" height="16"/><rect x="216" y="346" width="82" height="7"/>
  <rect x="304" y="348" width="82" height="16"/><rect x="304" y="376" width="82" height="7"/>
</g>
<g stroke="#B5523B" stroke-width="5" stroke-linecap="round">
  <line x1="224" y1="408" x2="224" y2="430"/><line x1="240" y1="408" x2="240" y2="430"/>
  <line x1="256" y1="408" x2="256" y2="430"/><line x1="272" y1="408" x2="272" y2="430"/>
  <line x1="288" y1="408" x2="288" y2="430"/>
  <line x1="312" y1="438" x2="312" y2="460"/><line x1="328" y1="438" x2="328" y2="460"/>
  <line x1="344" y1="438" x2="344" y2="460"/><line x1="360" y1="438" x2="360" y2="460"/>
  <line x1="376" y1="438" x2="376" y2="460"/>
</g>
SVG
}

art_oak_board() {
  cat <<'SVG'
<rect x="262" y="96" width="76" height="130" rx="30" fill="#C89B6D"/>
<circle cx="300" cy="132" r="14" fill="#E5EBEE"/>
<rect x="140" y="196" width="320" height="236" rx="40" fill="#C89B6D"/>
<g fill="none" stroke="#B0845A" stroke-width="5" stroke-linecap="round">
  <path d="M176 250 Q260 232 340 252 T430 248"/><path d="M170 306 Q250 290 330 310 T436 304"/>
  <path d="M180 364 Q262 348 338 368 T424 362"/><path d="M300 160 V210"/>
</g>
<ellipse cx="300" cy="444" rx="170" ry="10" fill="#CBD5DA"/>
SVG
}

art_stoneware_vase() {
  cat <<'SVG'
<g fill="none" stroke="#8B6B4E" stroke-width="5" stroke-linecap="round">
  <path d="M292 200 C280 150 250 110 212 82"/><path d="M300 200 C304 140 318 100 340 66"/>
  <path d="M308 200 C330 160 370 130 408 118"/>
</g>
<g fill="#C9A978">
  <ellipse cx="212" cy="82" rx="16" ry="9" transform="rotate(-35 212 82)"/>
  <ellipse cx="240" cy="112" rx="14" ry="7" transform="rotate(-40 240 112)"/>
  <ellipse cx="340" cy="66" rx="9" ry="16"/><ellipse cx="322" cy="104" rx="8" ry="14" transform="rotate(20 322 104)"/>
  <ellipse cx="408" cy="118" rx="16" ry="9" transform="rotate(-15 408 118)"/>
  <ellipse cx="372" cy="132" rx="14" ry="7" transform="rotate(-25 372 132)"/>
</g>
<path d="M262 440 C196 440 186 328 230 278 C256 250 266 228 262 204 L338 204 C334 228 344 250 370 278 C414 328 404 440 338 440 Z"
      fill="#8FA39A"/>
<rect x="252" y="190" width="96" height="18" rx="9" fill="#7E938A"/>
<g fill="#6F847B">
  <circle cx="250" cy="330" r="3"/><circle cx="290" cy="370" r="3"/><circle cx="340" cy="320" r="3"/>
  <circle cx="360" cy="392" r="3"/><circle cx="272" cy="410" r="3"/><circle cx="318" cy="284" r="3"/>
</g>
<ellipse cx="300" cy="446" rx="130" ry="9" fill="#DDD5C9"/>
SVG
}

art_beeswax_candles() {
  cat <<'SVG'
<g fill="#F6A623"><path d="M242 150 C228 128 238 108 242 92 C250 110 258 128 242 150 Z"/>
  <path d="M300 110 C286 88 296 68 300 52 C308 70 316 88 300 110 Z"/>
  <path d="M358 170 C344 148 354 128 358 112 C366 130 374 148 358 170 Z"/></g>
<g fill="#FFF1B8"><ellipse cx="242" cy="136" rx="5" ry="10"/><ellipse cx="300" cy="96" rx="5" ry="10"/>
  <ellipse cx="358" cy="156" rx="5" ry="10"/></g>
<g stroke="#3B2F24" stroke-width="3"><line x1="242" y1="150" x2="242" y2="162"/>
  <line x1="300" y1="110" x2="300" y2="122"/><line x1="358" y1="170" x2="358" y2="182"/></g>
<g fill="#E7C45A">
  <path d="M228 162 H256 L260 404 H224 Z"/><path d="M286 122 H314 L318 404 H282 Z"/>
  <path d="M344 182 H372 L376 404 H340 Z"/>
</g>
<g fill="#D4AE45"><rect x="250" y="170" width="5" height="230"/><rect x="308" y="130" width="5" height="270"/>
  <rect x="366" y="190" width="5" height="210"/></g>
<rect x="188" y="400" width="224" height="22" rx="11" fill="#B08D57"/>
<rect x="222" y="422" width="156" height="18" rx="9" fill="#9A7A49"/>
SVG
}

# Product slug, function, display name and text colour (dark on light backgrounds).
PRODUCTS=(
  "linen-shirt|art_linen_shirt|Linen shirt|#2B2B2B"
  "ceramic-mug|art_ceramic_mug|Ceramic mug|#2B2B2B"
  "wool-scarf|art_wool_scarf|Wool scarf|#2B2B2B"
  "oak-board|art_oak_board|Oak serving board|#2B2B2B"
  "stoneware-vase|art_stoneware_vase|Stoneware vase|#2B2B2B"
  "beeswax-candles|art_beeswax_candles|Beeswax candles|#F4EBDD"
)

for entry in "${PRODUCTS[@]}"; do
  IFS='|' read -r slug art name ink <<<"$entry"
  {
    echo '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="600" viewBox="0 0 600 600">'
    tile "$art"
    echo "<text x=\"300\" y=\"548\" font-family=\"$SANS\" font-weight=\"bold\" font-size=\"44\" text-anchor=\"middle\" fill=\"$ink\">$name</text>"
    echo '</svg>'
  } >"$WORK/product-$slug.svg"
  render_jpeg "$WORK/product-$slug.svg" "$OUT/product-$slug.jpg" 5
done

# ---------------------------------------------------------------------------------------------
# Event covers (540x960): a gradient, the store mark, a status pill, the event title and a
# product or two from the event, so the three read differently at thumbnail size.

# cover <file> <from> <to> <ink> <pill colour> <pill text> <art fragment...> -- <title lines...>
cover() {
  local file="$1" from="$2" to="$3" ink="$4" pill="$5" pill_text="$6"
  shift 6
  local arts=()
  while [[ "$1" != "--" ]]; do
    arts+=("$1")
    shift
  done
  shift
  local pill_width=$((${#pill_text} * 16 + 56))
  {
    echo '<svg xmlns="http://www.w3.org/2000/svg" width="540" height="960" viewBox="0 0 540 960">'
    echo "<defs><linearGradient id=\"bg\" x1=\"0\" y1=\"0\" x2=\"0.4\" y2=\"1\"><stop offset=\"0\" stop-color=\"$from\"/><stop offset=\"1\" stop-color=\"$to\"/></linearGradient>"
    echo '<clipPath id="tile"><rect width="600" height="600" rx="44"/></clipPath></defs>'
    echo '<rect width="540" height="960" fill="url(#bg)"/>'
    echo "<circle cx=\"470\" cy=\"150\" r=\"190\" fill=\"#FFFFFF\" fill-opacity=\"0.08\"/>"
    echo "<circle cx=\"40\" cy=\"880\" r=\"230\" fill=\"#FFFFFF\" fill-opacity=\"0.06\"/>"
    echo "<text x=\"40\" y=\"76\" font-family=\"$SANS\" font-weight=\"bold\" font-size=\"20\" letter-spacing=\"5\" fill=\"$ink\">NORDLYS LIVING</text>"
    echo "<rect x=\"40\" y=\"112\" width=\"$pill_width\" height=\"44\" rx=\"22\" fill=\"$pill\"/>"
    echo "<circle cx=\"62\" cy=\"134\" r=\"6\" fill=\"#FFFFFF\"/>"
    echo "<text x=\"78\" y=\"142\" font-family=\"$SANS\" font-weight=\"bold\" font-size=\"21\" letter-spacing=\"2\" fill=\"#FFFFFF\">$pill_text</text>"
    local y=250
    for line in "$@"; do
      echo "<text x=\"40\" y=\"$y\" font-family=\"$SERIF\" font-weight=\"bold\" font-size=\"62\" fill=\"$ink\">$line</text>"
      y=$((y + 74))
    done
    local count=${#arts[@]} index=0
    for art in "${arts[@]}"; do
      # One tile centred, or two overlapping tiles, in the lower half.
      local x=110 ty=520 scale=0.53
      if ((count == 2)); then
        x=$((40 + index * 170))
        ty=$((500 + index * 130))
        scale=0.45
      fi
      echo "<g transform=\"translate($x $ty) scale($scale)\"><g clip-path=\"url(#tile)\">"
      tile "$art" 45
      echo '</g></g>'
      index=$((index + 1))
    done
    echo '</svg>'
  } >"$WORK/$file.svg"
  render_jpeg "$WORK/$file.svg" "$OUT/$file.jpg" 6
}

cover cover-live '#B9573A' '#E6A46E' '#FFFDF8' '#D93A3A' 'LIVE NOW' art_wool_scarf art_ceramic_mug -- \
  'Autumn living' 'live now'
cover cover-planned '#24384D' '#7F9CB8' '#F4F7FA' '#2490A8' 'COMING UP' art_wool_scarf -- \
  'Winter textiles' 'preview'
cover cover-vod '#4F6B58' '#BFD0BB' '#FBFCF8' '#29323D' 'WATCH AGAIN' art_ceramic_mug art_oak_board -- \
  'Kitchen' 'favourites'

# ---------------------------------------------------------------------------------------------
# The show: four 15 s backdrops, then clock, progress bar and audio added by ffmpeg.

SEGMENT_SECONDS=15
FPS=25

# backdrop <file> <background> <accent> <body...>: the static frame of one segment.
backdrop() {
  local file="$1" background="$2" accent="$3"
  shift 3
  {
    echo '<svg xmlns="http://www.w3.org/2000/svg" width="540" height="960" viewBox="0 0 540 960">'
    echo "<rect width=\"540\" height=\"960\" fill=\"$background\"/>"
    echo "<circle cx=\"520\" cy=\"900\" r=\"260\" fill=\"$accent\" fill-opacity=\"0.10\"/>"
    echo "<circle cx=\"-20\" cy=\"120\" r=\"180\" fill=\"$accent\" fill-opacity=\"0.08\"/>"
    echo "<text x=\"36\" y=\"72\" font-family=\"$SANS\" font-weight=\"bold\" font-size=\"20\" letter-spacing=\"5\" fill=\"#2B2B2B\">NORDLYS LIVING</text>"
    echo "<rect x=\"0\" y=\"940\" width=\"540\" height=\"8\" fill=\"$accent\" fill-opacity=\"0.25\"/>"
    "$@"
    echo '</svg>'
  } >"$WORK/$file.svg"
  render_png "$WORK/$file.svg" "$WORK/$file.png"
}

welcome_body() {
  cat <<SVG
<text x="270" y="330" font-family="$SANS" font-size="30" text-anchor="middle" fill="#5A4A3A">Welcome to the</text>
<text x="270" y="430" font-family="$SERIF" font-weight="bold" font-size="96" text-anchor="middle" fill="#2B2B2B">Vitrine</text>
<text x="270" y="520" font-family="$SERIF" font-weight="bold" font-size="72" text-anchor="middle" fill="#2B2B2B">demo show</text>
<rect x="230" y="566" width="80" height="4" rx="2" fill="#C96F4A"/>
<text x="270" y="650" font-family="$SANS" font-weight="bold" font-size="22" letter-spacing="3" text-anchor="middle" fill="#5A4A3A">COMING UP</text>
<text x="270" y="700" font-family="$SANS" font-size="28" text-anchor="middle" fill="#2B2B2B">Linen shirt</text>
<text x="270" y="744" font-family="$SANS" font-size="28" text-anchor="middle" fill="#2B2B2B">Ceramic mug</text>
<text x="270" y="788" font-family="$SANS" font-size="28" text-anchor="middle" fill="#2B2B2B">Wool scarf</text>
SVG
}

# product_body <art fragment> <name> <price> <position>
product_body() {
  cat <<SVG
<defs><clipPath id="card"><rect width="600" height="600" rx="40"/></clipPath></defs>
<rect x="56" y="148" width="428" height="428" rx="32" fill="#FFFFFF" fill-opacity="0.7"/>
<g transform="translate(60 152) scale(0.7)"><g clip-path="url(#card)">
SVG
  tile "$1" 45
  cat <<SVG
</g></g>
<text x="60" y="124" font-family="$SANS" font-weight="bold" font-size="20" letter-spacing="3" fill="#5A4A3A">$4</text>
<text x="270" y="700" font-family="$SERIF" font-weight="bold" font-size="68" text-anchor="middle" fill="#2B2B2B">$2</text>
<text x="270" y="764" font-family="$SANS" font-size="32" text-anchor="middle" fill="#3D3D3D">$3</text>
<rect x="150" y="812" width="240" height="56" rx="28" fill="#2B2B2B"/>
<text x="270" y="849" font-family="$SANS" font-weight="bold" font-size="22" text-anchor="middle" fill="#FFFFFF">Tap to shop</text>
SVG
}

backdrop segment-0 '#EFE4D6' '#C96F4A' welcome_body
backdrop segment-1 '#E3EAE2' '#7C9A82' product_body art_linen_shirt 'Linen shirt' '549 kr' 'PRODUCT 1 OF 3'
backdrop segment-2 '#F6E6DA' '#C96F4A' product_body art_ceramic_mug 'Ceramic mug' '179 kr' 'PRODUCT 2 OF 3'
backdrop segment-3 '#F0E2DF' '#B5523B' product_body art_wool_scarf 'Wool scarf' '399 kr' 'PRODUCT 3 OF 3'

# A soft A-major pad, faded in and out, plus a two-partial chime at every segment start.
AUDIO_EXPR="0.018*(sin(2*PI*220*t)+sin(2*PI*277.18*t)+sin(2*PI*329.63*t))*(0.75+0.25*sin(2*PI*0.2*t))"
AUDIO_EXPR+="+0.16*sin(2*PI*1318.51*t)*exp(-4*mod(t,$SEGMENT_SECONDS))"
AUDIO_EXPR+="+0.06*sin(2*PI*1975.53*t)*exp(-6*mod(t,$SEGMENT_SECONDS))"
# Commas would end the filter in the graph description.
AUDIO_EXPR="${AUDIO_EXPR//,/\\,}"
TOTAL_SECONDS=$((SEGMENT_SECONDS * 4))

cat >"$WORK/show.filter" <<FILTER
[0:v][1:v][2:v][3:v]concat=n=4:v=1:a=0,format=yuv420p[base];
color=c=0x2B2B2B:s=540x8:r=$FPS[bar];
[base][bar]overlay=x=-w+W*mod(t\\,$SEGMENT_SECONDS)/$SEGMENT_SECONDS:y=H-20:eval=frame:shortest=1,
drawtext=fontfile=$CLOCK_FONT:text='%{eif\\:trunc(t/60)\\:d}\\:%{eif\\:mod(t\\,60)\\:d\\:2}':x=w-tw-40:y=44:fontsize=30:fontcolor=white:box=1:boxcolor=0x2B2B2B@0.75:boxborderw=12[v];
aevalsrc=exprs=$AUDIO_EXPR:s=44100:d=$TOTAL_SECONDS,afade=t=in:d=1.5,afade=t=out:st=$((TOTAL_SECONDS - 2)):d=2[a]
FILTER

inputs=()
for segment in 0 1 2 3; do
  inputs+=(-loop 1 -framerate "$FPS" -t "$SEGMENT_SECONDS" -i "$WORK/segment-$segment.png")
done
"$FFMPEG" "${QUIET[@]}" "${inputs[@]}" -filter_complex_script "$WORK/show.filter" -map '[v]' -map '[a]' \
  -c:v libx264 -profile:v main -preset slow -crf 26 -pix_fmt yuv420p -r "$FPS" -g $((FPS * 2)) \
  -c:a aac -b:a 64k -ac 1 -ar 44100 -t "$TOTAL_SECONDS" -movflags +faststart \
  -map_metadata -1 -fflags +bitexact "$OUT/demo-show.mp4"

# ---------------------------------------------------------------------------------------------
# The logo: hand-written, so it is not rendered here, only written out.
cat >"$OUT/logo.svg" <<'SVG'
<svg xmlns="http://www.w3.org/2000/svg" width="240" height="64" viewBox="0 0 240 64" role="img" aria-label="Nordlys Living">
  <circle cx="32" cy="32" r="28" fill="#1F3340"/>
  <path d="M12 36 C20 22 30 30 36 20 S48 14 52 18" fill="none" stroke="#7FD1B9" stroke-width="4" stroke-linecap="round"/>
  <path d="M12 44 C22 32 32 40 40 30 S50 26 53 28" fill="none" stroke="#A7E0C6" stroke-width="3" stroke-linecap="round" opacity="0.8"/>
  <path d="M20 50 L32 41 L44 50" fill="none" stroke="#F4EBDD" stroke-width="3" stroke-linejoin="round" stroke-linecap="round"/>
  <text x="72" y="30" font-family="Georgia, 'Noto Serif', serif" font-size="22" font-weight="bold" fill="#1F3340">Nordlys</text>
  <text x="73" y="50" font-family="'Helvetica Neue', Arial, 'Noto Sans', sans-serif" font-size="12" letter-spacing="4" fill="#4A6572">LIVING</text>
</svg>
SVG

# ---------------------------------------------------------------------------------------------
# Guard the size budgets the web app relies on.

check_size() {
  local file="$1" limit="$2" size
  size=$(stat -c %s "$file")
  if ((size > limit)); then
    echo "$file is $size bytes, over its $limit byte budget" >&2
    exit 1
  fi
  printf '%8d  %s\n' "$size" "${file#"$ROOT"/}"
}

check_size "$OUT/demo-show.mp4" 3145728
for file in "$OUT"/cover-*.jpg; do check_size "$file" 81920; done
for file in "$OUT"/product-*.jpg; do check_size "$file" 40960; done
check_size "$OUT/logo.svg" 4096

"$FFPROBE" -v error -show_entries stream=codec_name,profile,width,height,pix_fmt,r_frame_rate:format=duration \
  -of compact "$OUT/demo-show.mp4"
