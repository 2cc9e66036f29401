"""Chinese (village): phrases from rules/village.md §6.8, simplified and traditional.

Chinese has no spaces: a keyword may touch the name (``投X``), and the name is the longest
roster name right after it (done by the name matcher). Filler between the keyword and the
names, or after them, is allowed (``烧 X 的房子``, ``海报贴在 X 门口``).
"""

from types import MappingProxyType as _M

from forummod.extract.lexicon.words import Act, Words

WORDS = Words(
    # §6.8 lynch vote: 投票 X, 投票给 X, 我投 X, 投 X, 票 X, 放逐 X
    vote=(r"我投票给", r"我投票給", r"投票给", r"投票給", r"我投票", r"投票", r"我投给", r"我投給", r"我投",
          r"投给", r"投給", r"投", r"票", r"放逐"),
    unvote=(r"撤票", r"取消投票", r"收回投票", r"撤回投票", r"撤销投票", r"撤銷投票"),  # §6.8
    abstain=(r"弃票", r"棄票", r"弃权", r"棄權"),  # §6.8: abstain (VIL-V-2 allow_abstain)
    no_lynch=(r"无人", r"無人", r"不放逐", r"没有人", r"沒有人", r"平安日"),
    connectors=(r"给", r"給"),
    stop=(),
    self_words=(r"我自己", r"自己", r"我"),
    conj=(r"和", r"与", r"與", r"跟", r"及", r"、", r"，", r","),
    alt=(r"或者", r"或", r"还是", r"還是"),
    roles=_M({
        "狼": "werewolf", "狼队": "werewolf", "狼隊": "werewolf", "狼人们": "werewolf", "狼人們": "werewolf",
        "预言家": "seer", "占卜師": "seer", "丘比特": "cupid", "邱比特": "cupid", "小女孩": "little_girl",
        "守卫": "guardian", "守衛": "guardian", "吹笛人": "piper", "吹笛者": "piper", "白狼人": "white_werewolf",
        "白狼": "white_werewolf", "纵火狂": "pyromaniac", "縱火狂": "pyromaniac", "谣言散布者": "scandalmonger",
        "謠言散布者": "scandalmonger", "替罪羊": "scapegoat",
        # buildings and titles (day powers)
        "理发师": "barber", "理髮師": "barber", "理发師": "barber", "神父": "confessor", "整骨师": "bonesetter",
        "整骨師": "bonesetter", "司法官": "bailiff", "校长": "schoolmarm", "校長": "schoolmarm",
        "教师": "schoolmarm", "教師": "schoolmarm", "地主": "lord", "领主": "lord", "領主": "lord",
        "警长": "sheriff", "警長": "sheriff", "面包师傅": "baker", "麵包師傅": "baker", "面包师": "baker",
    }),
    cards=_M({"一": "1", "1": "1", "二": "2", "2": "2"}),
    modes=_M({"小": "small", "大": "big", "睡": "sleep", "睡觉": "sleep", "睡覺": "sleep", "不偷看": "sleep"}),
    buildings=_M({
        "农家": "farm", "農家": "farm", "农场": "farm", "農場": "farm", "教堂": "church", "棚屋": "hovel",
        "学校": "school", "學校": "school", "面包店": "bakery", "麵包店": "bakery", "理发厅": "barbershop",
        "理髮廳": "barbershop", "理发店": "barbershop", "理髮店": "barbershop", "司法官的家": "bailiff",
        "酒吧": "tavern", "豪宅": "manor",
    }),
    building_joiner=(r"入住", r"住进", r"住進"),
)

_KILL = r"击杀|擊殺|刀|杀|殺"

ACTIONS = {
    "mafia-majority": (  # the commands the Chinese role PMs quote
        Act("check", r"查验|查驗|验|驗"),
        Act("protect", r"保护|保護|守护|守護"),
        Act("kill", _KILL),
    ),
    "village": (  # plain=True: read in plain thread text too (§6.8 forms are written that way)
        Act("thief_take", r"[换換拿]第[一1][张張]", args=(("card", "1"),)),  # VIL-N-01
        Act("thief_take", r"[换換拿]第[二2][张張]", args=(("card", "2"),)),  # VIL-N-01
        Act("thief_keep", r"不[换換]"),  # VIL-N-01
        Act("link", r"连接|連接|连|連"),  # VIL-N-02
        Act("protect", r"守护|守護|守"),  # VIL-N-04
        Act("check", r"查验|查驗|验|驗"),  # VIL-N-05
        Act("ww_kill", _KILL, prefix="white_werewolf"),  # VIL-N-09: 白狼：刀 X
        Act("barber", _KILL, prefix="barber"),  # VIL-B-BARBER: 理发师：杀 X
        Act("confess", r"查看|看|查", prefix="confessor"),  # VIL-B-CHURCH: 神父：查看 X
        Act("pack_submitter", r"[报報]刀(?:人|的人)?(?:是)?", before=True),  # VIL-A-43: "X 报刀"
        Act("kill", _KILL),  # VIL-N-06
        Act("spy", r"偷看"),  # VIL-N-07 (mode word follows)
        Act("watch", r"观察|觀察|偷瞄"),  # VIL-N-08
        Act("burn", r"纵火|縱火|烧|燒"),  # VIL-N-10: 烧 X 的房子 / 纵火 X
        Act("no_potion", r"不用[药藥]"),  # VIL-N-11
        Act("heal", r"用解[药藥]|救"),  # VIL-N-11
        Act("poison", r"用毒[药藥]|毒"),  # VIL-N-11
        Act("charm", r"魅惑"),  # VIL-N-12
        Act("poster", r"[贴貼]海[报報][给給]|海[报報][贴貼]在|海[报報]"),  # VIL-N-14
        Act("silence", r"禁止|禁言", plain=True),  # VIL-B-SCHOOL: 禁止 X 和 Y 投票
        Act("restore", r"恢复|恢復"),  # VIL-B-HOVEL
        Act("plead", r"求赦免|[请請]赦免我|求饶|求饒", plain=True),  # VIL-B-MANOR (before 赦免)
        Act("pardon", r"赦免", plain=True),  # VIL-B-MANOR
        Act("assign", r"[让讓]|安排"),  # VIL-B-BAILIFF: 让 X 入住 <building>
        Act("accept", r"接受"),  # VIL-B-BAILIFF
        Act("refuse", r"拒[绝絕]"),  # VIL-B-BAILIFF
        Act("elect", r"[选選](?=.*[当當]警[长長])", plain=True),  # VIL-D-02: 选 X 当警长
        Act("sheriff_choice", r"警[长長]决定|警[長长]決定", plain=True),  # VIL-V-5
        Act("successor", r"警徽[交移]?[给給]|移交警徽[给給]", plain=True),  # VIL-B-FARM
        Act("shoot", r"开枪|開槍|带走|帶走"),  # VIL-R-HUNTER
        Act("scapegoat_ruling", r"允许|允許", prefix="scapegoat"),  # VIL-R-SCAPEGOAT ("替罪羊：X 和 Y" also works)
    ),
}
