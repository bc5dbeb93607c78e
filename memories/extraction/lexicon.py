"""Word lists the local extractor types values with (Korean and English).

A value is typed by its head word ("남색" is a colour, "농구" a sport) so that "X 좋아해" lands on the
right subject without a pattern per subject. Lists are deliberately broad and generic, not per dataset.
"""
from __future__ import annotations

import re
from functools import lru_cache

SEASONS_KO = ("봄", "여름", "가을", "겨울")
SEASONS_EN = ("spring", "summer", "autumn", "fall", "winter")

COLORS_KO = (
    "빨강", "빨간색", "빨간", "주황", "주황색", "노랑", "노란색", "초록", "초록색", "연두", "연두색", "녹색",
    "파랑", "파란색", "하늘색", "남색", "네이비", "보라", "보라색", "분홍", "분홍색", "핑크", "검정", "검정색",
    "검은색", "까만색", "블랙", "하양", "흰색", "하얀색", "화이트", "회색", "그레이", "베이지", "갈색", "민트",
    "민트색", "버건디", "와인색", "라벤더", "코랄", "청록색", "카키", "카키색", "골드", "금색", "은색", "실버",
)
COLORS_EN = (
    "red", "orange", "yellow", "green", "blue", "navy", "navy blue", "purple", "violet", "pink", "black",
    "white", "gray", "grey", "beige", "brown", "mint", "teal", "turquoise", "burgundy", "lavender", "gold",
    "silver", "maroon", "sky blue", "cyan", "magenta", "khaki",
)

SPORTS_KO = (
    "축구", "농구", "야구", "배구", "테니스", "수영", "헬스", "요가", "필라테스", "클라이밍", "볼링", "골프",
    "배드민턴", "탁구", "러닝", "달리기", "조깅", "마라톤", "등산", "자전거", "사이클", "스키", "스노보드",
    "보드", "서핑", "복싱", "킥복싱", "주짓수", "태권도", "유도", "검도", "합기도", "크로스핏", "풋살", "스쿼시",
    "펜싱", "승마", "스케이트", "인라인", "발레", "댄스", "춤", "줌바", "스피닝", "웨이트", "당구", "족구",
    "핸드볼", "아이스하키", "하키", "럭비", "미식축구", "피겨", "요트", "카약", "암벽등반", "철인3종", "헬스장",
    "PT", "수영장", "볼더링", "러닝크루", "농구장", "축구장",
)
SPORTS_EN = (
    "soccer", "football", "basketball", "baseball", "volleyball", "tennis", "swimming", "yoga", "pilates",
    "climbing", "bouldering", "bowling", "golf", "badminton", "table tennis", "ping pong", "running", "jogging",
    "marathon", "hiking", "cycling", "biking", "skiing", "snowboarding", "surfing", "boxing", "kickboxing",
    "jiu-jitsu", "jiu jitsu", "taekwondo", "judo", "karate", "crossfit", "futsal", "squash", "fencing",
    "skating", "ballet", "dance", "dancing", "weightlifting", "lifting", "hockey", "rugby", "cricket",
    "lacrosse", "softball", "rowing", "kayaking", "martial arts", "gym", "working out", "weight training",
)
SPORT_VERBS_EN = {"swim": "swimming", "run": "running", "hike": "hiking", "climb": "climbing", "surf": "surfing",
                  "ski": "skiing", "skate": "skating", "box": "boxing", "bike": "biking", "cycle": "cycling",
                  "jog": "jogging", "dance": "dancing", "lift": "lifting"}

FOODS_KO = (
    "떡볶이", "치킨", "피자", "햄버거", "버거", "라면", "짜장면", "짬뽕", "탕수육", "삼겹살", "곱창", "막창",
    "족발", "보쌈", "김밥", "초밥", "스시", "회", "돈까스", "돈가스", "파스타", "스테이크", "마라탕", "마라샹궈",
    "순대", "순대국", "국밥", "냉면", "비빔밥", "불고기", "갈비", "찜닭", "닭갈비", "샤브샤브", "카레", "우동",
    "라멘", "쌀국수", "타코", "부대찌개", "김치찌개", "된장찌개", "순두부", "감자탕", "삼계탕", "제육볶음",
    "오므라이스", "김치볶음밥", "볶음밥", "만두", "떡", "빵", "케이크", "아이스크림", "마카롱", "초콜릿",
    "젤리", "과자", "쿠키", "와플", "붕어빵", "호떡", "닭발", "훠궈", "양꼬치", "연어", "육회", "파전",
    "칼국수", "수제비", "잡채", "죽", "샐러드", "샌드위치", "토스트", "베이글", "도넛", "엽떡", "로제떡볶이",
    "곱도리탕", "닭강정", "치즈", "고기", "해산물", "조개", "새우", "랍스터", "꽃게", "장어",
)
FOOD_SUFFIXES_KO = ("볶이", "찌개", "탕", "국", "밥", "면", "볶음", "구이", "튀김", "전골", "덮밥", "국수", "빵",
                    "케이크", "버거", "김밥", "만두", "떡", "피자", "파스타", "라멘", "스시", "치킨")
FRUITS_KO = ("사과", "배", "복숭아", "딸기", "포도", "수박", "참외", "귤", "오렌지", "바나나", "망고", "키위",
             "체리", "블루베리", "자두", "감", "레몬", "파인애플", "멜론", "샤인머스캣", "석류", "무화과")
FOODS_EN = ("pizza", "burger", "burgers", "tacos", "taco", "sushi", "ramen", "pho", "pasta", "birria", "pad thai",
            "curry", "dumplings", "bbq", "barbecue", "steak", "fried chicken", "wings", "noodles", "lasagna", "burrito",
            "burritos", "enchiladas", "tamales", "pozole", "quesadillas", "nachos", "bibimbap", "kimchi", "tteokbokki",
            "bulgogi", "korean bbq", "hot pot", "dim sum", "mac and cheese", "sandwich", "sandwiches", "salad",
            "soup", "pancakes", "waffles", "ice cream", "cheesecake", "donuts", "chocolate", "fries", "gyoza",
            "udon", "soba", "tonkatsu", "shawarma", "falafel", "kebab", "biryani", "paella", "risotto", "gnocchi",
            "carbonara", "ceviche", "poke", "brisket", "ribs", "chili", "gumbo", "jambalaya", "pierogi", "pupusas",
            "tonkotsu", "shoyu", "miso ramen", "mapo tofu", "xiao long bao", "banh mi", "laksa", "tikka masala",
            "dal", "empanadas", "arepas", "mole", "cacio e pepe", "bagels", "croissants", "mala", "hot chicken")
# Cities a user may name as home without a verb ("austin heat is killing me"): lower case.
CITIES_EN = ("new york", "nyc", "los angeles", "la", "chicago", "houston", "phoenix", "philadelphia", "philly",
             "san antonio", "san diego", "dallas", "austin", "san jose", "san francisco", "sf", "seattle", "denver",
             "boston", "nashville", "portland", "las vegas", "vegas", "atlanta", "miami", "orlando", "tampa",
             "minneapolis", "detroit", "baltimore", "charlotte", "raleigh", "salt lake city", "kansas city",
             "st. louis", "new orleans", "pittsburgh", "cleveland", "columbus", "indianapolis", "milwaukee",
             "sacramento", "albuquerque", "tucson", "el paso", "oklahoma city", "honolulu", "anchorage", "boise",
             "toronto", "vancouver", "montreal", "calgary", "london", "manchester", "dublin", "paris", "berlin",
             "amsterdam", "madrid", "barcelona", "rome", "sydney", "melbourne", "auckland", "tokyo", "osaka",
             "seoul", "busan", "singapore", "manila", "hong kong", "taipei", "bangkok", "mexico city",
             "lisbon", "porto", "prague", "vienna", "munich", "hamburg", "frankfurt", "cologne", "stuttgart", "zurich",
             "brussels", "copenhagen", "stockholm", "oslo", "helsinki", "warsaw", "budapest", "milan", "florence",
             "naples", "athens", "istanbul", "edinburgh", "glasgow", "birmingham", "leeds", "liverpool", "bristol",
             "brisbane", "perth", "adelaide", "wellington", "ottawa", "quebec city", "winnipeg", "edmonton",
             "kyoto", "hanoi", "ho chi minh city", "saigon", "jakarta", "kuala lumpur", "shanghai", "beijing",
             "dubai", "cape town", "sao paulo", "buenos aires", "lima", "bogota", "oakland")
# Cities and provinces a place inside them may refine ("서울" → "망원동"): the names as users write them.
CITIES_KO = ("서울", "부산", "대구", "인천", "광주", "대전", "울산", "세종", "제주", "제주도", "경기", "경기도", "수원", "성남", "고양",
             "용인", "창원", "청주", "전주", "천안", "포항", "김해", "화성", "안산", "안양", "평택", "강원", "강원도", "충북", "충남",
             "전북", "전남", "경북", "경남", "춘천", "원주", "강릉", "여수", "순천", "목포", "경주", "구미", "진주", "군산")


# Neighbourhoods and districts people name as places (a proper noun with no place ending): never a person's name.
NEIGHBOURHOODS_KO = frozenset("""강남 강북 강서 강동 분당 판교 일산 홍대 신촌 잠실 여의도 이태원 성수 망원 합정 연남 건대 목동 상암
마포 용산 송도 동탄 광교 해운대 서면 센텀 평촌 유성 둔산 노원 도봉 은평 서초 송파 관악 동작 영등포 구로 금천 양천 성북 중랑
광진 동대문 서대문 종로 을지로 한남 압구정 청담 삼성 역삼 선릉 논현 신사 가로수길 연희 상수 익선 문래 가산 미아 수유 창동 하남
위례 미사 다산 김포 파주 의정부 부천 광명 시흥 군포 의왕 과천 구리 남양주 세종 오송 대치 반포 잠원 방배 사당 신림 봉천 독산""".split())


# Syllables Korean given names are made of (the common ones): a proper noun with any other syllable is a brand, a
# dish or a loanword ("유튜브", "마라탕", "아이폰"), not a person.
NAME_SYLLABLES_KO = frozenset("""가 건 겸 경 결 규 균 근 기 길 나 남 늘 다 단 담 도 동 두 라 란 람 랑 래 령 로 루 류 리 린 림 마
만 명 무 문 미 민 범 별 보 복 봄 비 빈 빛 산 상 새 서 석 선 설 섭 성 세 소 솔 송 수 숙 순 슬 승 시 신 아 안 애 양 언 연 열
영 예 오 옥 온 완 용 우 욱 운 원 월 위 유 윤 율 은 을 음 의 이 인 일 임 자 재 전 정 제 조 종 주 준 중 지 진 찬 창 채 천 철
초 춘 충 태 택 하 학 한 해 향 혁 현 형 혜 호 홍 화 환 황 효 훈 휘 희""".split())


def is_city(value: str) -> bool:
    """A city or province, not a place inside one ("서울", "서울시", "berlin"; not "망원동", "friedrichshain")."""
    low = value.strip().casefold()
    korean = re.sub(r"(?:특별시|광역시|특별자치시|특별자치도|시|도)$", "", low) if re.search(r"[가-힣]", low) else low
    return low in CITIES_EN or korean in CITIES_KO or low in CITIES_KO


FRUITS_EN = ("apple", "pear", "peach", "strawberry", "grape", "watermelon", "orange", "tangerine", "banana",
             "mango", "kiwi", "cherry", "blueberry", "plum", "persimmon", "lemon", "pineapple", "melon", "fig")
DRINKS_KO = ("커피", "아메리카노", "라떼", "녹차", "홍차", "밀크티", "버블티", "콜라", "사이다", "맥주", "소주",
             "와인", "막걸리", "위스키", "하이볼", "스무디", "주스", "우유", "에이드", "식혜")

ANIMALS_KO = ("강아지", "고양이", "냥이", "냥냥이", "댕댕이", "개", "햄스터", "토끼", "앵무새", "새", "거북이",
              "고슴도치", "물고기", "금붕어", "열대어", "도마뱀", "뱀", "기니피그", "페럿", "친칠라", "다람쥐",
              "게코", "이구아나", "반려견", "반려묘", "반려동물", "멍멍이", "강쥐", "냥")
ANIMALS_EN = ("dog", "puppy", "cat", "kitten", "hamster", "rabbit", "bunny", "parrot", "bird", "turtle",
              "tortoise", "hedgehog", "fish", "goldfish", "lizard", "gecko", "snake", "guinea pig", "ferret",
              "chinchilla", "budgie", "cockatiel", "iguana", "pet")
BREEDS_KO = (
    "러시안블루", "러시안 블루", "코숏", "코리안숏헤어", "코리안 숏헤어", "페르시안", "먼치킨", "스코티시폴드",
    "스코티시 폴드", "스코티쉬폴드", "벵갈", "샴", "랙돌", "브리티시숏헤어", "브리티시 숏헤어", "아메리칸숏헤어",
    "아메리칸 숏헤어", "노르웨이숲", "메인쿤", "터키시앙고라", "아비시니안", "스핑크스", "엑조틱", "치즈냥이",
    "삼색이", "턱시도", "고등어", "말티즈", "푸들", "토이푸들", "포메라니안", "포메", "시바견", "시바", "웰시코기",
    "코기", "골든리트리버", "골든 리트리버", "리트리버", "래브라도", "진돗개", "진도개", "비숑", "비숑프리제",
    "치와와", "닥스훈트", "시츄", "요크셔테리어", "요크셔", "보더콜리", "허스키", "시베리안허스키", "사모예드",
    "슈나우저", "스피츠", "페키니즈", "퍼그", "불독", "프렌치불독", "비글", "셰퍼드", "도베르만", "말라뮤트",
    "믹스", "믹스견", "잡종", "풍산개", "삽살개", "베들링턴테리어", "파피용", "미니핀", "보스턴테리어",
    "모란앵무", "사랑앵무", "왕관앵무", "코뉴어", "잉꼬", "카나리아", "문조", "십자매", "금화조", "청금강", "유황앵무",
)
BREEDS_EN = (
    "russian blue", "persian", "munchkin", "scottish fold", "bengal", "siamese", "ragdoll", "british shorthair",
    "american shorthair", "maine coon", "sphynx", "tabby", "maltese", "poodle", "toy poodle", "pomeranian",
    "shiba", "shiba inu", "corgi", "welsh corgi", "golden retriever", "retriever", "labrador", "jindo",
    "bichon", "chihuahua", "dachshund", "shih tzu", "yorkie", "yorkshire terrier", "border collie", "husky",
    "samoyed", "schnauzer", "spitz", "pekingese", "pug", "bulldog", "french bulldog", "beagle",
    "german shepherd", "shepherd", "doberman", "malamute", "mutt", "mixed breed", "terrier", "collie",
)

HOBBIES_KO = (
    "독서", "책", "게임", "영화 감상", "영화감상", "그림", "그림 그리기", "요리", "베이킹", "뜨개질", "사진", "사진 찍기", "여행",
    "캠핑", "낚시", "노래", "노래방", "악기", "피아노", "기타", "드럼", "우쿨렐레", "바이올린", "드라마", "웹툰", "애니",
    "글쓰기", "일기", "명상", "산책", "쇼핑", "덕질", "코딩", "레고", "퍼즐", "보드게임", "넷플릭스", "유튜브", "만화",
    "십자수", "프라모델", "피규어", "식물", "가드닝", "홈카페", "다꾸", "필사", "캘리그라피", "수집", "전시회", "뮤지컬",
)
# Widely known artists, so that "BTS 좋아해" lands on favorite_artist; anything else still becomes a like.
ARTISTS_KO = (
    "BTS", "방탄", "방탄소년단", "블랙핑크", "블핑", "뉴진스", "아이유", "세븐틴", "아이브", "르세라핌", "에스파", "트와이스",
    "엑소", "데이식스", "잔나비", "임영웅", "성시경", "폴킴", "악뮤", "AKMU", "빅뱅", "지드래곤", "태연", "소녀시대",
    "레드벨벳", "NCT", "엔시티", "스트레이키즈", "스키즈", "투바투", "TXT", "엔하이픈", "있지", "ITZY", "(여자)아이들",
    "아이들", "마마무", "샤이니", "오마이걸", "볼빨간사춘기", "10cm", "십센치", "검정치마", "혁오", "새소년", "실리카겔",
    "라이즈", "제베원", "보이넥스트도어", "투어스", "QWER", "하이키", "비비", "이무진", "적재", "백예린", "헤이즈",
    "콜드플레이", "테일러 스위프트", "아리아나 그란데", "브루노 마스", "에드 시런", "저스틴 비버", "빌리 아일리시",
)

FAMILY_MEMBERS_KO = ("할아버지", "할머니", "아버지", "어머니", "아빠", "엄마", "부모님", "형", "오빠", "누나",
                     "언니", "남동생", "여동생", "동생", "쌍둥이", "형제", "자매", "남매")
FAMILY_MEMBERS_EN = ("mom", "mother", "dad", "father", "parents", "brother", "sister", "grandma", "grandmother",
                     "grandpa", "grandfather", "sibling", "siblings", "twin")

# Words that make a clause about someone other than the user ("걔는 ESTP라", "동생은 20살").
# An age in native Korean numerals ("스물넷", "서른", "열여섯"): one pattern for the rules that read a bare age.
NATIVE_AGE_WORD_KO = r"(?:열|스물|서른|마흔|쉰|예순)(?:하나|둘|셋|넷|다섯|여섯|일곱|여덟|아홉)?"
OTHER_PERSON_KO = (
    "걔", "얘", "쟤", "그애", "그 애", "그 친구", "그친구", "친구", "친구들", "동생", "남동생", "여동생", "누나",
    "언니", "형", "오빠", "엄마", "아빠", "어머니", "아버지", "부모님", "할머니", "할아버지", "여친", "남친",
    "여자친구", "남자친구", "애인", "와이프", "아내", "남편", "아들", "딸", "동기", "선배", "후배", "팀장님",
    "사장님", "교수님", "선생님", "룸메", "룸메이트", "조원", "베프", "절친", "그 사람", "그사람", "걔네", "쌤",
    "강아지", "고양이", "너", "넌", "니", "너는", "니가", "네가",
    "딸내미", "아이", "애기", "첫째", "둘째", "셋째", "막내", "사위", "며느리", "손주", "손자", "손녀", "조카", "사촌",
    "시어머니", "시아버지", "장모님", "장인어른", "형부", "제부", "매형", "올케", "새언니", "예비신랑", "예비신부",
    "따님", "아드님", "어머님", "아버님", "남편분", "아내분", "부인", "사모님", "동생분", "형님", "누님", "친구분",
    "집사람", "안사람", "신랑", "마누라", "큰애", "작은애", "애들", "아들내미", "외손자", "외손녀", "친손자", "친손녀",
)
# Words before a family word that keep it someone else ("큰딸", "막내동생", "사촌언니", "울 엄마").
OTHER_PERSON_PREFIXES_KO = ("큰", "작은", "첫째", "둘째", "셋째", "막내", "사촌", "친", "외", "새", "전", "예비", "울", "우리")

# Ranks at work, read as an occupation ("과장으로 일해요") and as a promotion ("차장 달았어", korean_work).
WORK_RANKS_KO = ("사원", "주임", "대리", "과장", "차장", "부장", "팀장", "실장", "본부장", "매니저", "선임")

OCCUPATIONS_KO = (
    "학생", "대학생", "대학원생", "고등학생", "중학생", "초등학생", "고딩", "대딩", "중딩", "취준생", "취업준비생",
    "수험생", "재수생", "직장인", "회사원", "공무원", "프리랜서", "개발자", "프로그래머", "디자이너", "간호사",
    "의사", "교사", "선생님", "군인", "주부", "전업주부", "백수", "자영업자", "사장", "대표", "엔지니어",
    "연구원", "기자", "작가", "유튜버", "스트리머", "변호사", "회계사", "세무사", "약사", "요리사", "셰프",
    "바리스타", "승무원", "은행원", "마케터", "기획자", "경찰", "경찰관", "소방관", "트레이너", "미용사",
    "배우", "가수", "모델", "치위생사", "물리치료사", "사회복지사", "영양사", "건축가", "크리에이터",
    "일러스트레이터", "번역가", "통역사", "아나운서", "운동선수", "코치", "강사", "교수", "인턴", "신입사원",
    "알바생", "사무직", "영업직", "생산직", "판매직", "공대생", "의대생", "간호학생", "조교", "상담사",
    "보육교사", "유치원 선생님", "과외 선생님", "택배기사", "배달기사", "운전기사", "편집자", "작곡가",
    "피디", "PD", "애니메이터", "웹툰 작가", "사진작가", "플로리스트", "파티시에", "제빵사", "수의사", "한의사",
    "치과의사", "간병인", "직업군인", "부사관", "장교", "연구자", "데이터 분석가", "분석가", "컨설턴트",
    # ranks at work ("과장으로 일해요", "차장 달았어"): WORK_RANKS_KO, and these two
    "인턴", "책임연구원",
) + WORK_RANKS_KO
OCCUPATION_SUFFIXES_KO = ("개발자", "디자이너", "엔지니어", "프로그래머", "기획자", "연구원", "마케터", "작가",
                          "선생님", "교사", "강사", "기자", "사원", "직원", "매니저", "분석가", "전문가", "상담사",
                          "치료사", "기사", "간호사", "의사", "변호사", "회계사", "약사", "요리사", "공무원",
                          "크리에이터", "유튜버", "아티스트", "감독", "피디", "PD", "셰프", "대표", "사장", "원장",
                          "기공사", "사육사", "위생사", "미용사", "조리사", "세무사", "노무사", "법무사", "통역사", "번역가",
                          "정비사", "조종사", "승무원", "수의사", "기관사", "큐레이터", "바텐더", "트레이너", "기술자",
                          "상담원", "교수")
OCCUPATIONS_EN = (
    "student", "grad student", "graduate student", "college student", "high school student", "engineer",
    "software engineer", "developer", "programmer", "designer", "nurse", "doctor", "teacher", "lawyer",
    "accountant", "barista", "cashier", "chef", "cook", "freelancer", "writer", "artist", "musician",
    "photographer", "intern", "consultant", "manager", "analyst", "data scientist", "scientist", "researcher",
    "professor", "tutor", "pilot", "firefighter", "police officer", "cop", "soldier", "office worker",
    "civil servant", "youtuber", "streamer", "editor", "journalist", "reporter", "pharmacist", "dentist",
    "vet", "veterinarian", "paramedic", "mechanic", "electrician", "plumber", "carpenter", "architect",
    "marketer", "salesperson", "receptionist", "secretary", "banker", "trainer", "coach", "model", "actor",
    "actress", "singer", "dancer", "animator", "illustrator", "translator", "interpreter", "librarian",
    "homemaker", "stay-at-home mom", "stay-at-home dad", "waiter", "waitress", "bartender", "driver",
    "delivery driver", "therapist", "counselor", "social worker", "caregiver", "baker", "florist", "farmer",
    "entrepreneur", "founder", "ceo", "product manager", "project manager", "game developer", "web developer",
    "ux designer", "graphic designer", "software developer", "it worker", "clerk", "sales clerk",
)
OCCUPATION_HEADS_EN = ("engineer", "developer", "designer", "programmer", "teacher", "nurse", "doctor", "manager",
                       "analyst", "scientist", "researcher", "writer", "artist", "student", "worker", "officer",
                       "assistant", "consultant", "specialist", "technician", "therapist", "director", "producer",
                       "editor", "planner", "marketer", "architect", "accountant", "lawyer", "chef", "cook",
                       "clerk", "driver", "intern", "freelancer", "professor", "tutor", "coach", "trainer",
                       "photographer", "illustrator", "animator", "musician", "singer", "actor", "dancer",
                       "hygienist", "rep", "representative", "associate", "bartender", "server", "waiter", "waitress",
                       "cashier", "receptionist", "stylist", "hairdresser", "barber", "dentist", "pharmacist",
                       "paralegal", "technologist", "administrator", "coordinator", "supervisor", "agent", "realtor",
                       "instructor", "librarian", "caregiver", "surgeon", "physician", "mechanic", "electrician",
                       "plumber", "carpenter", "paramedic", "firefighter", "pilot", "attendant", "teller",
                       "recruiter", "strategist", "copywriter", "journalist", "reporter", "veterinarian", "vet",
                       "nanny", "babysitter", "housekeeper", "janitor", "dispatcher", "operator", "inspector", "tech",
                       "salesperson", "salesman", "saleswoman", "bookkeeper", "auditor", "underwriter", "aide",
                       "keeper", "zookeeper", "translator", "interpreter", "curator", "lifeguard", "guard", "baker",
                       "butcher", "florist", "sommelier", "chemist", "biologist", "psychologist", "economist")

MAJOR_ABBREVIATIONS_KO = (
    "컴공", "컴퓨터공학", "전전", "전자공학", "전기공학", "기계공학", "화공", "화학공학", "산공", "산업공학",
    "건축", "건축학", "토목", "경영", "경영학", "경제", "경제학", "국문", "국문학", "국어국문", "영문", "영문학",
    "영어영문", "불문", "독문", "중문", "일문", "사학", "철학", "심리", "심리학", "사회학", "정외", "정치외교",
    "행정", "행정학", "신방", "신문방송", "미디어", "언론정보", "법학", "법대", "의대", "의예", "의학",
    "간호", "간호학", "약대", "약학", "치의예", "수의학", "한의학", "수학", "수학과", "통계", "통계학",
    "물리", "물리학", "화학", "생명과학", "생명공학", "생물", "지구과학", "천문", "교육", "교육학", "유교",
    "초등교육", "체육", "체교", "음악", "실용음악", "작곡", "성악", "피아노", "미술", "회화", "디자인",
    "시각디자인", "산업디자인", "패션디자인", "연영", "연극영화", "영상", "관광", "호텔경영", "식품영양",
    "사회복지", "아동학", "소프트웨어", "정보보호", "데이터사이언스", "인공지능", "게임공학", "전산",
    "국제학", "무역", "회계", "세무", "광고홍보", "문헌정보", "문창", "문예창작", "조리", "항공",
)

# Common words that are never the value of a personal fact on their own.
STOP_VALUES_KO = frozenset({
    "나", "저", "너", "거", "것", "게", "그거", "이거", "저거", "뭐", "무엇", "그냥", "진짜", "완전", "너무",
    "좀", "조금", "많이", "다", "또", "요즘", "지금", "이제", "그", "이", "저", "우리", "혼자", "같이", "잘",
    "별로", "아직", "사실", "원래", "근데", "그리고", "아", "어", "음", "응", "네", "예", "오", "와", "헐",
    "아무", "아무거나", "전부", "모두", "다른", "어디", "누구", "언제", "왜", "어떻게", "제일", "가장",
    "나중", "언젠가", "원래", "옛날", "예전", "처음", "마지막",
})
STOP_VALUES_EN = frozenset({
    "it", "that", "this", "them", "there", "here", "a", "an", "the", "so", "very", "really", "just", "too",
    "you", "me", "him", "her", "everything", "nothing", "anything", "something", "all", "lot", "lots",
    "alone", "home", "well", "what", "who", "sure", "ok", "okay", "kinda", "sorta", "kind of", "sort of", "not really",
    "maybe", "probably", "definitely", "totally", "exactly", "same", "idk", "dunno", "nope", "yep", "yeah", "yes", "no",
    "u pick", "you pick", "your pick", "ur pick", "up to you", "up to u", "whatever", "idc", "dont care", "don't care",
    "not sure", "no idea", "surprise me", "you choose", "u choose",
})

_HANGUL = re.compile(r"[가-힣]")
_LATIN = re.compile(r"[A-Za-z]")


def in_list(value: str, words) -> str:
    """Return the list word `value` is or ends with ("진한 남색" → "남색"), else ''."""
    compact = value.replace(" ", "").lower()
    for word in sorted(words, key=len, reverse=True):
        if compact == word.replace(" ", "").lower():
            return word
    latin = re.fullmatch(r"[A-Za-z0-9 '&.-]+", value.strip() or "x") is not None
    low = " " + re.sub(r"\s+", " ", value.strip().lower())
    for word in sorted(words, key=len, reverse=True):
        w = word.replace(" ", "").lower()
        if latin and re.fullmatch(r"[a-z0-9 '&.-]+", word.lower()):
            if low.endswith(" " + word.lower()):  # "wheel throwing" does not end with the word "rowing"
                return word
            continue
        if len(w) >= 2 and compact.endswith(w):
            return word
    return ""


def is_color_ko(value: str) -> bool:
    compact = value.replace(" ", "")
    return bool(in_list(compact, COLORS_KO)) or (compact.endswith("색") and 2 <= len(compact) <= 5)


def is_food_ko(value: str) -> bool:
    compact = value.replace(" ", "")
    return bool(in_list(compact, FOODS_KO + FRUITS_KO + DRINKS_KO)) or compact.endswith(FOOD_SUFFIXES_KO)


# A department one works in says what one does ("화장품 회사 마케팅팀", "퍼블리싱 마케팅팀이야", "영업부").
DEPARTMENTS_KO = ("마케팅", "개발", "기획", "디자인", "영업", "인사", "재무", "회계", "총무", "홍보", "연구", "품질", "생산",
                  "물류", "구매", "법무", "전략", "운영", "경영지원", "사업", "CS", "QA", "데이터", "보안", "편집", "광고")
_DEPARTMENT_KO = re.compile("(?:" + "|".join(DEPARTMENTS_KO) + r")(?:팀|부|본부|실)$")


def is_occupation_ko(value: str) -> bool:
    """"간호사", "게임 개발자", "20살 대학생", "마케팅팀" (the head word decides)."""
    compact = value.replace(" ", "")
    known = {o.replace(" ", "") for o in OCCUPATIONS_KO}
    if compact in known or (value.split() and value.split()[-1] in known):
        return True
    if _DEPARTMENT_KO.search(compact):
        return True
    return len(compact) >= 3 and compact.endswith(OCCUPATION_SUFFIXES_KO)


@lru_cache(maxsize=1)
def _occupation_words() -> frozenset[str]:
    words = {w.split()[-1] for w in OCCUPATIONS_EN + OCCUPATION_HEADS_EN if len(w.split()[-1]) >= 4}
    return frozenset(words | {f"{w}s" for w in words})


def occupations_named(text: str) -> set[str]:
    """The English occupations `text` names from the lexicon, by their last word ("adding it. barista, so i'll read it
    on my break" → barista), lowercased. Not Korean: "선생님", "간호사분" name the people one meets far more often than
    one's job."""
    return set(re.findall(r"[a-z]+", (text or "").casefold())) & _occupation_words()


def is_occupation_en(value: str) -> bool:
    low = value.lower().strip()
    if low in OCCUPATIONS_EN:
        return True
    last = low.split()[-1] if low.split() else ""
    return last in OCCUPATION_HEADS_EN


def is_major_ko(value: str) -> bool:
    compact = value.replace(" ", "")
    if compact in MAJOR_ABBREVIATIONS_KO:
        return True
    for suffix in ("학과", "학부", "공학", "전공", "교육과"):
        if compact.endswith(suffix) and len(compact) > len(suffix):
            return True
    return compact.endswith("과") and len(compact) >= 3 and compact[:-1] in MAJOR_ABBREVIATIONS_KO


_EN_UNITS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9}
_EN_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
            "ninety": 90}
_EN_TEENS = {"ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
             "seventeen": 17, "eighteen": 18, "nineteen": 19}


def english_number(words: str) -> int:
    """"twenty-seven" → 27, "nineteen" → 19, anything else → 0."""
    parts = [p for p in re.split(r"[- ]+", words.lower().strip(" .,!?")) if p not in {"years", "year", "old"}]
    if len(parts) == 1 and parts[0] in _EN_TEENS:
        return _EN_TEENS[parts[0]]
    if parts and parts[0] in _EN_TENS:
        return _EN_TENS[parts[0]] + (_EN_UNITS.get(parts[1], 0) if len(parts) > 1 else 0)
    return 0


def is_korean(text: str) -> bool:
    """Korean when words with Hangul are at least as many as Latin-only words ("내 MBTI는 INFP야" is Korean)."""
    words = text.split()
    korean = sum(1 for w in words if _HANGUL.search(w))
    latin = sum(1 for w in words if _LATIN.search(w) and not _HANGUL.search(w))
    return korean > 0 and korean >= latin


# Things a person has one of at a time, named from closed lists (extraction.changes `OWN_KINDS`): the game they
# main, the phone they use, their tier in a ranked game, the drink they live on. Key → how it is written (regex, one
# alternation; Korean names may need a particle after them where the bare word means something else).
_KO_AFTER = r"(?=만|은|는|도|랑|이랑|하|을|를|\s*(?:랭|티어|함|해|했|켜|접|시작|\d))"
GAMES = {
    "valorant": rf"valorant|발로란트|발로{_KO_AFTER}",
    "league": rf"league\s+of\s+legends|리그\s*오브\s*레전드|(?<![가-힣])롤{_KO_AFTER}",
    "overwatch": r"overwatch|오버워치|옵치",
    "minecraft": rf"minecraft|마인크래프트|(?<![가-힣])마크{_KO_AFTER}",
    "fortnite": r"fortnite|포트나이트|포나",
    "maplestory": r"maple\s*story|메이플(?:\s*스토리)?",
    "lostark": rf"lost\s*ark|로스트\s*아크|(?<![가-힣])로아{_KO_AFTER}",
    "pubg": r"\bpubg\b|battlegrounds|배그|배틀\s*그라운드",
    "apex": r"\bapex(?:\s+legends)?\b|에이펙스",
    "genshin": r"genshin(?:\s+impact)?|원신",
    "marvel_rivals": r"marvel\s+rivals|마블\s*라이벌즈|\brivals\b",
    "fifa": r"\bfifa\b|\bea\s*fc\b|피파|fc\s*온라인",
    "counter_strike": r"counter-?strike|\bcs2\b|\bcsgo\b|(?<![가-힣])카스{_KO_AFTER}",
    "dota": r"\bdota\s*2?\b|도타",
    "roblox": r"roblox|로블록스",
    "stardew": r"stardew(?:\s+valley)?|스타듀",
    "animal_crossing": r"animal\s+crossing|동물의\s*숲|동숲",
    "zelda": r"zelda|젤다",
    "elden_ring": r"elden\s+ring|엘든\s*링",
    "diablo": r"diablo|디아블로|디아\s*4",
    "wow": r"world\s+of\s+warcraft",
    "hearthstone": r"hearthstone|하스스톤",
    "tft": r"teamfight\s+tactics|\btft\b|롤토체스|롤체",
    "tekken": r"tekken|철권",
    "street_fighter": r"street\s+fighter|스트리트\s*파이터",
    "brawl_stars": r"brawl\s+stars|브롤\s*스타즈|브롤",
    "clash": r"clash\s+(?:royale|of\s+clans)|클래시\s*(?:로얄|오브\s*클랜)",
    "star_rail": r"star\s+rail|스타레일|붕괴\s*스타레일|붕스",
    "zenless": r"zenless|젠레스|젠존제",
    "blue_archive": r"blue\s+archive|블루\s*아카이브|블루아카|블아",
    "nikke": r"\bnikke\b|니케",
    "sudden_attack": r"서든\s*어택|서든",
    "dnf": r"던전\s*앤\s*파이터|던파",
    "kartrider": r"카트\s*라이더|카트라이더",
    "cookie_run": r"cookie\s+run|쿠키런",
    "pokemon": r"pok[eé]mon(?:\s+go)?|포켓몬(?:\s*고)?",
    "rocket_league": r"rocket\s+league|로켓\s*리그",
    "call_of_duty": r"call\s+of\s+duty|\bwarzone\b|콜\s*오브\s*듀티|콜옵",
    "rainbow_six": r"rainbow\s+six|\br6\b|레식",
    "sims": r"the\s+sims|심즈",
}
PHONE_BRANDS = {
    "iphone": r"아이폰|iphone",
    "galaxy": r"갤럭시|galaxy",
    "pixel": r"픽셀(?=\s?\d)|pixel(?=\s?\d)",
}
# The model after a brand: "13 미니", "Z플립7", "s24 ultra", "15 pro max".
PHONE_MODEL = (r"(?:\s?(?:z\s?)?(?:플립|폴드|flip|fold|노트|note|[sa](?=\s?\d))?\s?\d{1,2}"
               r"(?:\s?(?:프로|맥스|미니|울트라|플러스|pro|max|mini|ultra|plus|\+|fe)(?![가-힣A-Za-z]))*)?")
RANK_TIERS = {
    "iron": r"iron|아이언", "bronze": r"bronze|브론즈|(?<![가-힣])브(?=\s?\d)", "silver": r"silver|실버",
    "gold": r"gold|골드|(?<![가-힣])골(?=\s?\d)",
    "platinum": r"plat(?:inum)?|플래(?:티넘)?|플레(?:티넘)?|(?<![가-힣])플(?=\s?\d)", "emerald": r"emerald|에메랄드",
    "diamond": r"diamond|다이아", "ascendant": r"ascendant", "immortal": r"immortal", "master": r"master|마스터",
    "grandmaster": r"grandmaster|그랜드\s*마스터|그마", "challenger": r"challenger|챌린저", "radiant": r"radiant",
}
# Words that make a tier a rank ("hardstuck gold", "골드 승급"), when no division number follows it ("gold 2").
RANK_CONTEXT = r"\b(?:rank(?:ed)?|elo|tier|hardstuck|ranked|lp|rr)\b|랭크|랭겜|티어|승급|강등|점수"
DRINKS = {
    "americano": r"아메리카노|아아(?![가-힣])|americano",
    "latte": r"(?<!말차)(?<!말차\s)(?<!녹차)(?<!녹차\s)(?:카페\s*)?라떼|(?<!matcha\s)latte",
    "matcha": r"말차(?:\s*라떼)?|녹차\s*라떼|matcha(?:\s+latte)?",
    "cold_brew": r"콜드\s*브루|cold\s+brew",
    "coffee": r"(?<![가-힣])커피|\bcoffee\b",
    "milk_tea": r"밀크티|버블티|\bboba\b|bubble\s+tea|milk\s+tea",
    "tea": r"(?<![가-힣])홍차|\bchai\b",
    "energy_drink": r"에너지\s*드링크|몬스터\s*(?:에너지|음료)|레드불|핫식스|\bmonsters?\b(?=\s+(?:energy|a\s+day|drinks?))"
                    r"|red\s*bull|energy\s+drinks?",
    "soda": r"콜라|제로\s*콜라|\bcoke\b|diet\s+coke|\bsoda\b|\bpepsi\b",
    "kombucha": r"콤부차|kombucha",
    "beer": r"(?<![가-힣])맥주|\bbeer\b",
    "soju": r"소주|\bsoju\b",
    "wine": r"(?<![가-힣])와인|\bwine\b",
    "highball": r"하이볼|highball",
}
HAIR_COLOURS = {
    "black": r"흑발|검정|검은|까만|블랙|\bblack\b", "blonde": r"금발|노랑|노란|\bblonde?\b",
    "ash": r"애쉬(?:\s*(?:브라운|그레이|블론드))?|\bash(?:\s+(?:brown|blonde?|gr[ae]y))?\b",
    "silver": r"은발|실버|\bsilver\b|\bplatinum\b", "brown": r"브라운|갈색|\bbrown\b",
    "pink": r"핑크|분홍|\bpink\b", "red": r"빨강|빨간|레드|\bred\b|\bginger\b|\bauburn\b", "blue": r"파랑|파란|블루|\bblue\b",
    "purple": r"보라|퍼플|\bpurple\b|\blilac\b|\blavender\b", "mint": r"민트|\bmint\b|\bteal\b", "green": r"초록|그린|\bgreen\b",
    "orange": r"주황|오렌지|\borange\b", "grey": r"회색|그레이|\bgr[ae]y\b", "white": r"하얀|흰|화이트|\bwhite\b",
}
# Words that make a colour the hair's ("핑크머리", "dyed it blue", "탈색함").
HAIR_CONTEXT = r"머리|헤어|염색|탈색|(?<=[흑금은])발|\bhair\b|\bdye[ds]?\b|\bbleach"
# Countries, for a change between two of them ("교환학생 나라 바꿈. 네덜란드는 … 덴마크로 지원하려고").
COUNTRIES_KO = ("한국", "미국", "캐나다", "영국", "프랑스", "독일", "이탈리아", "스페인", "포르투갈", "네덜란드", "벨기에", "스위스",
                "오스트리아", "덴마크", "스웨덴", "노르웨이", "핀란드", "아일랜드", "폴란드", "체코", "헝가리", "그리스", "터키", "튀르키예",
                "러시아", "일본", "중국", "대만", "홍콩", "싱가포르", "베트남", "태국", "필리핀", "말레이시아", "인도네시아", "인도",
                "호주", "뉴질랜드", "멕시코", "브라질", "아르헨티나", "칠레", "이집트", "남아공", "몽골", "두바이")
COUNTRIES_EN = ("korea", "usa", "america", "canada", "uk", "england", "scotland", "ireland", "france", "germany", "italy",
                "spain", "portugal", "netherlands", "holland", "belgium", "switzerland", "austria", "denmark", "sweden",
                "norway", "finland", "poland", "czechia", "hungary", "greece", "turkey", "russia", "japan", "china",
                "taiwan", "hong kong", "singapore", "vietnam", "thailand", "philippines", "malaysia", "indonesia",
                "india", "australia", "new zealand", "mexico", "brazil", "argentina", "chile", "egypt", "mongolia")


# Companies Korean users name bare as where they work ("나 삼성 다녀", "저 카카오 다녀요"): data for
# korean_work._KNOWN_COMPANY_ATTEND (a company that is also a shop people visit is left out: "스타벅스 다녀왔어").
COMPANIES_KO = ("삼성", "삼성전자", "삼성SDS", "엘지", "LG", "현대", "현대차", "현대자동차", "기아", "SK", "에스케이", "네이버", "카카오",
                "쿠팡", "배민", "우아한형제들", "토스", "당근", "당근마켓", "라인", "넥슨", "엔씨", "엔씨소프트", "넷마블", "크래프톤",
                "스마일게이트", "롯데", "CJ", "씨제이", "신세계", "GS", "한화", "포스코", "KT", "케이티", "한전", "코레일", "하이브",
                "SM", "JYP", "YG", "아모레", "아모레퍼시픽", "대한항공", "아시아나", "두산", "효성", "LS", "HD현대", "셀트리온",
                "삼성바이오", "카카오뱅크", "케이뱅크", "국민은행", "신한은행", "우리은행", "하나은행", "농협", "IBK", "기업은행")


# Words for the same person to the user: a question naming one ("Where's my lad living?", "우리 손주들 이름") also
# searches the others ("My son Liam's a plumber in Bristol", "손녀 서윤이") — context_pack.retrieval.
KIN_SYNONYMS = (
    ("son", "lad", "sons"), ("daughter", "daughters", "lass"), ("mum", "mom", "mother", "mam", "mommy", "mummy"),
    ("dad", "father", "daddy"), ("wife", "missus"), ("husband", "hubby"), ("girlfriend", "gf"), ("boyfriend", "bf"),
    ("grandchildren", "grandkids", "grandchild", "grandkid", "grandson", "granddaughter", "grandsons",
     "granddaughters"),
    ("grandma", "grandmother", "granny", "gran", "nan", "nana"), ("grandpa", "grandfather", "granddad", "grandad"),
    ("brother", "bro"), ("sister", "sis"),
    ("아들", "아드님"), ("딸", "따님", "딸내미"), ("엄마", "어머니", "어머님", "모친"), ("아빠", "아버지", "아버님", "부친"),
    ("남편", "신랑"), ("아내", "와이프", "집사람", "마누라"), ("남친", "남자친구"), ("여친", "여자친구"),
    ("손주", "손자", "손녀"), ("할머니", "할매"), ("할아버지", "할배"),
)
_KIN_GROUP = {word: group for group in KIN_SYNONYMS for word in group}


def kin_synonyms(words) -> list[str]:
    """The other words for the people `words` name (content words of a message), in table order, without `words`."""
    words = {word.casefold() for word in words}
    return list(dict.fromkeys(other for word in sorted(words) for other in _KIN_GROUP.get(word, ())
                              if other not in words))
