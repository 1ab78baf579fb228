"""English / 繁體中文 / 简体中文 labels: a small dictionary, no gettext machinery."""
from __future__ import annotations

import re

from flask import Flask, request, session

LANGUAGES = {"en": "English", "zh-Hant": "繁體中文", "zh-Hans": "简体中文"}
DEFAULT_LANGUAGE = "en"

# Each entry: English, Traditional, Simplified.
_LABELS: dict[str, tuple[str, str, str]] = {
    "app_title": ("Table scorer", "十三張・鋤大弟計分", "十三张・锄大弟计分"),
    "new_game": ("New game", "新牌局", "新牌局"),
    "your_games": ("Your games", "你的牌局", "你的牌局"),
    "no_games": ("No games on this device yet.", "這部裝置還沒有牌局。", "这部设备还没有牌局。"),
    "title": ("Name of the game", "牌局名稱", "牌局名称"),
    "players": ("Players", "玩家", "玩家"),
    "player": ("Player", "玩家", "玩家"),
    "player_n": ("Player {n}", "玩家 {n}", "玩家 {n}"),
    "rules": ("Rules", "規則", "规则"),
    "options": ("Options", "選項", "选项"),
    "stake": ("Stake per point", "每點注額", "每点注额"),
    "pair_stakes": ("Per-pair stakes (optional)", "個別對局注額（可選）", "个别对局注额（可选）"),
    "pair_stakes_help": ("One per line: Ann-Bob=2", "每行一項：Ann-Bob=2", "每行一项：Ann-Bob=2"),
    "banker": ("Banker", "莊家", "庄家"),
    "rotate_banker": ("Rotate the banker each round", "每局輪流坐莊", "每局轮流坐庄"),
    "pin": ("Game PIN (optional, 4–12 digits): each phone types it once to open this game",
            "牌局密碼（可選，4–12 位數字）：每部手機第一次打開此牌局時要輸入",
            "牌局密码（可选，4–12 位数字）：每部手机第一次打开此牌局时要输入"),
    "pin_enter": ("Game PIN (4–12 digits, from whoever made the game)", "牌局密碼（4–12 位數字，問開局的人）",
                  "牌局密码（4–12 位数字，问开局的人）"),
    "pin_prompt": ("This game is protected by a PIN.", "此牌局需要密碼。", "此牌局需要密码。"),
    "unlock": ("Open", "進入", "进入"),
    "wrong_pin": ("Wrong PIN.", "密碼錯誤。", "密码错误。"),
    "create": ("Create game", "建立牌局", "建立牌局"),
    "share_link": ("Share this link with the table", "把此連結分享給同桌", "把此链接分享给同桌"),
    "rounds": ("Rounds", "各局", "各局"),
    "round": ("Round", "第幾局", "第几局"),
    "round_n": ("Round {n}", "第 {n} 局", "第 {n} 局"),
    "new_round": ("New round", "新一局", "新一局"),
    "open": ("open", "進行中", "进行中"),
    "settled": ("settled", "已結算", "已结算"),
    "standings": ("Standings", "積分走勢", "积分走势"),
    "totals": ("Running totals", "累計", "累计"),
    "points": ("Points", "點數", "点数"),
    "money": ("Money", "金額", "金额"),
    "photo": ("Photo", "拍照", "拍照"),
    "take_photo": ("Take or choose a photo", "拍照或選擇相片", "拍照或选择相片"),
    "live_camera": ("Live camera", "即時鏡頭", "实时镜头"),
    "capture": ("Capture", "拍攝", "拍摄"),
    "webcam": ("Overhead webcam", "桌上鏡頭", "桌上镜头"),
    "webcam_shot": ("Take a shot with the table camera", "用桌上鏡頭拍攝", "用桌上镜头拍摄"),
    "manual": ("Type or tap cards", "輸入或點選牌", "输入或点选牌"),
    "manual_help": ("Front / middle / back, e.g. AS KS QS / … / …", "頭道 / 中道 / 尾道，例如 AS KS QS / … / …",
                    "头道 / 中道 / 尾道，例如 AS KS QS / … / …"),
    "loose": ("Cards not laid out in rows (read in order: 3, 5, 5)", "牌未排成三行（依次讀 3、5、5 張）",
              "牌未排成三行（依次读 3、5、5 张）"),
    "save": ("Save", "儲存", "保存"),
    "surrender": ("Surrender", "投降", "投降"),
    "declare_natural": ("Declare a natural", "報到", "报到"),
    "natural_declared": ("natural declared", "已報到", "已报到"),
    "waiting": ("waiting for cards", "等待輸入", "等待输入"),
    "surrendered": ("surrendered", "已投降", "已投降"),
    "review": ("Review", "檢查", "检查"),
    "front": ("Front", "頭道", "头道"),
    "middle": ("Middle", "中道", "中道"),
    "back": ("Back", "尾道", "尾道"),
    "swap": ("Swap", "對調", "对调"),
    "tap_to_fix": ("Tap a card to fix it, then tap the right one below.", "點一張牌，再在下面點正確的牌。",
                   "点一张牌，再在下面点正确的牌。"),
    "warnings": ("Warnings", "警告", "警告"),
    "likely": ("The reader's next guesses:", "讀取的其他猜測：", "读取的其他猜测："),
    "add_unsure": ("Missing a card? The reader was unsure of these; tap one to add it:",
                   "缺牌？讀取時不確定的牌如下，點一張即可加入：", "缺牌？读取时不确定的牌如下，点一张即可加入："),
    "settle": ("Settle round", "結算", "结算"),
    "settle_blocked": ("Every hand needs 13 valid cards (or a surrender) before settling.",
                       "每位玩家都要有 13 張有效的牌（或投降）才能結算。", "每位玩家都要有 13 张有效的牌（或投降）才能结算。"),
    "settlement": ("Settlement", "結算", "结算"),
    "reopen": ("Re-open to correct", "重開以更正", "重开以更正"),
    "history": ("History", "紀錄", "记录"),
    "changes": ("Changes", "更改紀錄", "更改记录"),
    "export_csv": ("Export CSV", "匯出 CSV", "导出 CSV"),
    "export_json": ("Export JSON", "匯出 JSON", "导出 JSON"),
    "reading": ("Reading the cards…", "正在讀牌…", "正在读牌…"),
    "uploading": ("Uploading…", "上傳中…", "上传中…"),
    "pair": ("Pair", "對局", "对局"),
    "row": ("Row", "道", "道"),
    "winner": ("Winner", "勝方", "胜方"),
    "net": ("Net", "淨額", "净额"),
    "game": ("Game", "牌局", "牌局"),
    "back_to_game": ("Back to the game", "返回牌局", "返回牌局"),
    "language": ("Language", "語言", "语言"),
    "api": ("API", "API", "API"),
    "confidence": ("confidence", "信心", "信心"),
    "cards_read": ("{n} cards read", "讀到 {n} 張牌", "读到 {n} 张牌"),
    "cancel": ("Cancel", "取消", "取消"),
    "rows_for": ("Rows of {name}", "{name} 的牌", "{name} 的牌"),
    "src_manual": ("typed", "手動輸入", "手动输入"),
    "src_photo": ("photo", "相片", "相片"),
    "src_camera": ("camera", "鏡頭", "镜头"),
    "src_webcam": ("table camera", "桌上鏡頭", "桌上镜头"),
    "src_api": ("API", "API", "API"),
    "none_yet": ("No rounds yet.", "還沒有牌局紀錄。", "还没有牌局记录。"),
    # Big Two (鋤大弟 / 大老二)
    "game_type": ("Game", "遊戲", "游戏"),
    "game_chinese-poker": ("Chinese poker 十三張", "十三張", "十三张"),
    "game_bigtwo": ("Big Two 鋤大弟", "鋤大弟（大老二）", "锄大弟（大老二）"),
    "went_out": ("Went out (winner)", "出完牌（贏家）", "出完牌（赢家）"),
    "cards_left": ("Cards left", "剩牌", "剩牌"),
    "cards_left_n": ("{n} cards left", "剩 {n} 張", "剩 {n} 张"),
    "manual_help_bigtwo": ("Cards left in hand, e.g. 2S KD 5C", "手上剩下的牌，例如 2S KD 5C",
                           "手上剩下的牌，例如 2S KD 5C"),
    "loose_always": ("Lay the cards left anyhow, all in the photo: they are read as loose cards.",
                     "把剩下的牌隨意攤開拍進同一張相片：以散牌方式讀取。", "把剩下的牌随意摊开拍进同一张相片：以散牌方式读取。"),
    "finish_order": ("Finishing order", "名次", "名次"),
    "place_n": ("Place {n}", "第 {n} 名", "第 {n} 名"),
    "failed_to_block": ("Failed to block (頂大): pays everyone's losses", "頂大（顧牌失敗）：賠全部輸分",
                        "顶大（顾牌失败）：赔全部输分"),
    "nobody": ("nobody", "沒有", "没有"),
    "settle_blocked_bigtwo": ("Mark who went out and give every other player's cards left before settling.",
                              "要先標明誰出完牌，並輸入其他玩家剩下的牌，才能結算。",
                              "要先标明谁出完牌，并输入其他玩家剩下的牌，才能结算。"),
    "settle_blocked_rank": ("Give the finishing order before settling.", "要先輸入名次才能結算。",
                            "要先输入名次才能结算。"),
    "settle_blocked_instant": ("{name} claims an instant win: give the 13 cards dealt to {name} and to every other "
                               "player (or withdraw the claim) before settling.",
                               "{name} 報即時勝出：要先輸入 {name} 和其他每位玩家派到的 13 張牌（或取消報即時勝出），才能結算。",
                               "{name} 报即时胜出：要先输入 {name} 和其他每位玩家派到的 13 张牌（或取消报即时胜出），才能结算。"),
    # Big Two instant win (即時勝出: 一條龍, four 2s)
    "instant_win": ("Instant win", "即時勝出", "即时胜出"),
    "instant_win_claimed": ("claims an instant win", "報即時勝出", "报即时胜出"),
    "instant_wins_paid": ("Instant wins these rules pay (the claimant enters the 13 cards dealt)",
                          "此規則計的即時勝出（報的玩家輸入派到的 13 張牌）", "此规则计的即时胜出（报的玩家输入派到的 13 张牌）"),
    "instant_cards_n": ("{n} cards dealt (instant win)", "派到 {n} 張（即時勝出）", "派到 {n} 张（即时胜出）"),
    "manual_help_instant": ("The 13 cards dealt, e.g. 3S 4H 5D 6C 7S 8H 9D TC JS QH KD AC 2S",
                            "派到的 13 張牌，例如 3S 4H 5D 6C 7S 8H 9D TC JS QH KD AC 2S",
                            "派到的 13 张牌，例如 3S 4H 5D 6C 7S 8H 9D TC JS QH KD AC 2S"),
    "instant_losers": ("{name} claims an instant win: give each other player the cards they were dealt.",
                       "{name} 報即時勝出：請輸入其他每位玩家派到的牌。", "{name} 报即时胜出：请输入其他每位玩家派到的牌。"),
    "instant_won": ("{name} won instantly", "{name} 即時勝出", "{name} 即时胜出"),
    "paid_times": ("each loser pays ×{n}", "輸家各付 ×{n}", "输家各付 ×{n}"),
    # One table, many phones (live round, fouls and fixes, moves, undo, result first)
    "waiting_hint": ("No cards yet: take a photo of the rows or type them.", "還沒有牌：拍下三道或直接輸入。",
                     "还没有牌：拍下三道或直接输入。"),
    "waiting_hint_bigtwo": ("No cards yet: photograph or type the cards left, or mark who went out.",
                            "還沒有牌：拍下或輸入剩牌，或標明誰出完牌。", "还没有牌：拍下或输入剩牌，或标明谁出完牌。"),
    "round_next_step": ("Next: enter each player's cards, then settle.", "下一步：輸入每位玩家的牌，然後結算。",
                        "下一步：输入每位玩家的牌，然后结算。"),
    "fouled": ("Fouled (相公):", "相公（擺烏龍）：", "相公（摆乌龙）："),
    "not_fouled": ("Not fouled", "沒有相公", "没有相公"),
    "fix_shows": ("The legal fix (moved cards marked):", "合規的擺法（移動了的牌有標記）：", "合规的摆法（移动了的牌有标记）："),
    "fix": ("Fix", "更正", "更正"),
    "natural_seen": ("Natural", "報到牌", "报到牌"),
    "undo": ("Undo", "復原", "复原"),
    "undo_surrender": ("Undo surrender", "取消投降", "取消投降"),
    "surrendered_help": ("this hand is out of the round; no cards needed.", "這手牌已退出本局，不用輸入牌。",
                         "这手牌已退出本局，不用输入牌。"),
    "changed_since": ("Someone changed this round since your page was loaded, so nothing was changed. Changes since:",
                      "你載入頁面後，有人改了這一局，所以沒有作出更改。期間的更改：",
                      "你载入页面后，有人改了这一局，所以没有作出更改。期间的更改："),
    "who_pays": ("Who pays whom", "誰付給誰", "谁付给谁"),
    "nobody_pays": ("Nobody pays anything this round.", "本局沒有人要付錢。", "本局没有人要付钱。"),
    "hindsight_title": ("How else could it have been set?", "還可以怎樣擺？", "还可以怎样摆？"),
    "hindsight_show": ("Show", "顯示", "显示"),
    "hindsight_loading": ("Working it out…", "計算中…", "计算中…"),
    "hindsight_no_cards": ("No cards to set again (the hand surrendered).", "沒有牌可以重擺（已投降）。",
                           "没有牌可以重摆（已投降）。"),
    "hindsight_against_table": ("Against the hands on the table", "對著桌上各家的牌", "对着桌上各家的牌"),
    "hindsight_as_played_best": ("No other way scores more against these hands: {net} points as played.",
                                 "對著這些牌，沒有更好的擺法：照擺得 {net} 分。", "对着这些牌，没有更好的摆法：照摆得 {net} 分。"),
    "hindsight_gain": ("Set like this it would have scored {net} points instead of {played} ({gain} more):",
                       "這樣擺會得 {net} 分，而不是 {played} 分（多 {gain} 分）：",
                       "这样摆会得 {net} 分，而不是 {played} 分（多 {gain} 分）："),
    "hindsight_in_general": ("Best in general (without seeing the other hands)", "一般最佳擺法（不看別家的牌）",
                             "一般最佳摆法（不看别家的牌）"),
    "hindsight_expected": ("Expected {expected} points per opponent against well-set random hands.",
                           "對擺得好的隨機牌，每位對手預期 {expected} 分。", "对摆得好的随机牌，每位对手预期 {expected} 分。"),
    "hindsight_natural": ("Better still: claim the natural, {natural}.", "更好：報到（{natural}）。", "更好：报到（{natural}）。"),
    "this_round": ("This round", "本局", "本局"),
    "audit": ("How it was counted (per pair, per row)", "計算明細（每對、每道）", "计算明细（每对、每道）"),
    "still_missing": ("Still missing:", "仍欠：", "仍欠："),
    "key_sure": ("sure", "確定", "确定"),
    "key_unsure": ("unsure", "不確定", "不确定"),
    "key_out": ("not in the hand", "不在手牌中", "不在手牌中"),
    "not_in_hand": ("Read but not in the hand:", "讀到但不在手牌中：", "读到但不在手牌中："),
    "tap_to_move": ("Tap a card, then tap where it goes (another card swaps them; a + or a row name moves it), or tap "
                    "its right value below. Or drag it.",
                    "點一張牌，再點它要去的位置（點另一張牌即對調；點 + 或道名即移過去），或在下面點正確的牌。也可以拖動。",
                    "点一张牌，再点它要去的位置（点另一张牌即对调；点 + 或道名即移过去），或在下面点正确的牌。也可以拖动。"),
    "picker_move_help": ("Or tap another card above to swap, a + or a row name to move it there.",
                         "或點上面另一張牌對調，點 + 或道名把它移過去。", "或点上面另一张牌对调，点 + 或道名把它移过去。"),
    "remove_card": ("Remove", "移除", "移除"),
    "this_phone": ("This phone is", "這部手機是", "这部手机是"),
    "me_nobody": ("(nobody chosen)", "（未選擇）", "（未选择）"),
    "me_help": ("Your name goes on the changes you make (\"Ann moved 7♠ …\").", "你作的更改會記上你的名字（「Ann 移動了 7♠ …」）。",
                "你作的更改会记上你的名字（「Ann 移动了 7♠ …」）。"),
    "banks_next": ("Banks next round", "下一局莊家", "下一局庄家"),
    "updated": ("Updated", "已更新", "已更新"),
    "someone": ("Someone", "有人", "有人"),
    # Settle-up, sharing (issue 69)
    "settle_up": ("Settle up", "結算找數", "结算找数"),
    "settle_up_all": ("Whole game", "全局", "全局"),
    "settle_up_range": ("Rounds {first}–{last}", "第 {first}–{last} 局", "第 {first}–{last} 局"),
    "settle_up_help": ("the fewest payments that square everyone", "最少轉賬次數，人人找清",
                       "最少转账次数，人人找清"),
    "settle_up_none": ("Nobody owes anything.", "沒有人欠錢。", "没有人欠钱。"),
    "settle_up_csv": ("Download the settle-up (CSV)", "下載結算（CSV）", "下载结算（CSV）"),
    "mark_paid": ("Mark paid", "標記已付", "标记已付"),
    "paid": ("Paid", "已付", "已付"),
    "paid_undo": ("Paid — tap to take the mark back", "已付——點一下取消標記", "已付——点一下取消标记"),
    "rounds_from": ("From round", "由第幾局", "由第几局"),
    "rounds_to": ("to", "至", "至"),
    "show": ("Show", "顯示", "显示"),
    "share_qr_alt": ("QR code of this game's link", "此牌局連結的二維碼", "此牌局链接的二维码"),
    "share_qr_help": ("Scan it with another phone's camera to open this game.", "用另一部手機的相機掃描即可打開此牌局。",
                      "用另一部手机的相机扫描即可打开此牌局。"),
    "share_copy": ("Copy link", "複製連結", "复制链接"),
    "share_copied": ("Copied", "已複製", "已复制"),
    "share_send": ("Share…", "分享…", "分享…"),
    "more_options": ("More options ({n})", "更多選項（{n}）", "更多选项（{n}）"),
    "manage_game": ("Game: rename, rematch, end, delete", "牌局：改名、再來一局、結束、刪除", "牌局：改名、再来一局、结束、删除"),
    "rename_player": ("Rename a player", "玩家改名", "玩家改名"),
    "new_name": ("New name", "新名字", "新名字"),
    "rename": ("Rename", "改名", "改名"),
    "rematch": ("Rematch", "再來一局", "再来一局"),
    "rematch_help": ("A new game with the same players, rules and stakes.", "同樣的玩家、規則和注額開新牌局。",
                     "同样的玩家、规则和注额开新牌局。"),
    "end_game": ("End the game", "結束牌局", "结束牌局"),
    "resume_game": ("Carry on playing", "繼續牌局", "继续牌局"),
    "game_ended": ("This game has ended: final totals and settle-up below.", "牌局已結束：以下是最後總數和結算。",
                   "牌局已结束：以下是最后总数和结算。"),
    "delete_confirm": ("Yes, delete this game with its rounds and photos for good", "確定永久刪除此牌局及其所有局數和相片",
                       "确定永久删除此牌局及其所有局数和相片"),
    "delete_game": ("Delete the game", "刪除牌局", "删除牌局"),
    "app_short": ("Scorer", "計分", "计分"),
    "offline": ("Offline", "離線", "离线"),
    "offline_banner": ("Offline: this is the last state this phone saw, read-only. Changes are off until the "
                       "connection is back; nothing you tapped is sent later.",
                       "離線中：這是此手機最後看到的狀態，只供閱讀。連線恢復前不能更改；離線時點的不會稍後補發。",
                       "离线中：这是此手机最后看到的状态，只供阅读。连线恢复前不能更改；离线时点的不会稍后补发。"),
    "offline_never_seen": ("This phone has not opened this page while online, so there is nothing saved to show. "
                           "Try again when the connection is back.",
                           "此手機未曾在連線時打開此頁，沒有可顯示的記錄。請在連線恢復後再試。",
                           "此手机未曾在连线时打开此页，没有可显示的记录。请在连线恢复后再试。"),
}

# Review warnings (English wording in webapp.rounds.WARNING_TEXT): Traditional, Simplified.
_WARNINGS: dict[str, tuple[str, str]] = {
    "no_cards": ("還沒有牌。", "还没有牌。"),
    "missing": ("{row}少了 {n} 張牌。", "{row}少了 {n} 张牌。"),
    "extra": ("{row}多了 {n} 張牌。", "{row}多了 {n} 张牌。"),
    "not_card": ("「{code}」不是一張牌，點它更正。", "「{code}」不是一张牌，点它更正。"),
    "repeated": ("{code} 在這手牌出現了 {n} 次。", "{code} 在这手牌出现了 {n} 次。"),
    "shared": ("{code} 也在 {players} 的牌裡讀到。", "{code} 也在 {players} 的牌里读到。"),
    "low": ("{code} 的讀取信心偏低（{percent}%）。", "{code} 的读取信心偏低（{percent}%）。"),
    "second_look": ("{code}：再看一次讀成 {other}（{percent}%）。請核對這張牌。",
                    "{code}：再看一次读成 {other}（{percent}%）。请核对这张牌。"),
    "second_look_none": ("{code}：再看一次看不出是牌（{percent}%）。請核對這張牌。",
                         "{code}：再看一次看不出是牌（{percent}%）。请核对这张牌。"),
    "no_cards_left": ("還沒有剩牌：拍照或輸入，或標明此玩家已出完牌。", "还没有剩牌：拍照或输入，或标明此玩家已出完牌。"),
    "too_many": ("剩 {n} 張牌，但一手最多 {limit} 張。", "剩 {n} 张牌，但一手最多 {limit} 张。"),
    "no_winner": ("請標明出完牌的玩家（贏家），或報即時勝出的玩家。", "请标明出完牌的玩家（赢家），或报即时胜出的玩家。"),
    "no_instant_cards": ("報即時勝出：請拍照或輸入派到的 13 張牌。", "报即时胜出：请拍照或输入派到的 13 张牌。"),
    "instant_refused": ("即時勝出不成立：{reason}", "即时胜出不成立：{reason}"),
    "no_order": ("請輸入名次：每位玩家一次，第一名先。", "请输入名次：每位玩家一次，第一名先。"),
    "blurred": ("照片看來模糊（牌角清晰度 {sharpness}，清晰的照片 {sharp} 以上）：請逐張核對，或拿穩、對焦並靠近一點重拍。",
                "照片看来模糊（牌角清晰度 {sharpness}，清晰的照片 {sharp} 以上）：请逐张核对，或拿稳、对焦并靠近一点重拍。"),
    "moved": ("照片看來模糊（拍照時相機移動了：拖影 {length} 像素）：請逐張核對，或拿穩手機重拍。",
              "照片看来模糊（拍照时相机移动了：拖影 {length} 像素）：请逐张核对，或拿稳手机重拍。"),
    "unsure_marks": ("已略去讀取不確定的牌角：{marks}。如有缺牌，可能就是其中一張。",
                     "已略去读取不确定的牌角：{marks}。如有缺牌，可能就是其中一张。"),
    "seen_twice": ("{code} 在照片中相隔很遠地出現了 {n} 次：其中一張可能讀錯了。",
                   "{code} 在照片中相隔很远地出现了 {n} 次：其中一张可能读错了。"),
    "seen_twice_left_out": ("{code} 在這手 {n} 張牌中相隔很遠地出現了兩次：已略去較不確定的一次（{confidence}）。"
                            "請核對 {code} 的位置，並確認沒有缺牌。",
                            "{code} 在这手 {n} 张牌中相隔很远地出现了两次：已略去较不确定的一次（{confidence}）。"
                            "请核对 {code} 的位置，并确认没有缺牌。"),
    "rows_unclear": ("照片中三道分得不清楚：請核對每張牌在哪一道。", "照片中三道分得不清楚：请核对每张牌在哪一道。"),
    "no_front_row": ("兩端都沒有 3 張牌的一道：已把較短的一端當作頭道，請核對三道。",
                     "两端都没有 3 张牌的一道：已把较短的一端当作头道，请核对三道。"),
    "front_unclear": ("分不出頭道和尾道：已把照片上方的一道當作頭道，請核對三道。",
                      "分不出头道和尾道：已把照片上方的一道当作头道，请核对三道。"),
    "no_rows": ("牌沒有排成分開的三道：請排成三道再拍，或直接輸入。", "牌没有排成分开的三道：请排成三道再拍，或直接输入。"),
    "too_few_for_rows": ("只找到 {n} 張牌：不夠分成三道。", "只找到 {n} 张牌：不够分成三道。"),
    "no_card_read": ("照片中沒有讀到任何牌：請讓牌角入鏡、靠近一點並對焦後重拍。",
                     "照片中没有读到任何牌：请让牌角入镜、靠近一点并对焦后重拍。"),
}

# The change lines (webapp.rounds.changes.describe writes them in English) in Chinese: each English form as a
# pattern, then its Traditional and Simplified wording. {whose} is "their" (the actor's own hand) or "<name>'s".
_WHOSE = r"(?P<whose>their|.+?'s)"
_CARD = r"\S+"
_CHANGE_FORMS: list[tuple[str, str, str]] = [
    (r"(?P<a>.+?) started the round", "{a} 開了這一局", "{a} 开了这一局"),
    (rf"(?P<a>.+?) read {_WHOSE} cards from a photo", "{a} 從相片讀了{whose}的牌", "{a} 从相片读了{whose}的牌"),
    (rf"(?P<a>.+?) read {_WHOSE} cards from a webcam shot", "{a} 用桌上鏡頭讀了{whose}的牌", "{a} 用桌上镜头读了{whose}的牌"),
    (rf"(?P<a>.+?) typed {_WHOSE} cards", "{a} 輸入了{whose}的牌", "{a} 输入了{whose}的牌"),
    (rf"(?P<a>.+?) added (?P<c>{_CARD}) to {_WHOSE} (?P<row>front|middle|back|cards)",
     "{a} 把 {c} 加到{whose}的{row}", "{a} 把 {c} 加到{whose}的{row}"),
    (rf"(?P<a>.+?) changed (?P<c>{_CARD}) to (?P<d>{_CARD}) in {_WHOSE} (?P<row>front|middle|back|cards)",
     "{a} 把{whose}{row}的 {c} 改成 {d}", "{a} 把{whose}{row}的 {c} 改成 {d}"),
    (rf"(?P<a>.+?) removed (?P<c>{_CARD}) from {_WHOSE} (?P<row>front|middle|back|cards)",
     "{a} 從{whose}的{row}移除了 {c}", "{a} 从{whose}的{row}移除了 {c}"),
    (rf"(?P<a>.+?) moved (?P<c>{_CARD}) within {_WHOSE} (?P<row>front|middle|back|cards)",
     "{a} 在{whose}的{row}內移動了 {c}", "{a} 在{whose}的{row}内移动了 {c}"),
    (rf"(?P<a>.+?) moved (?P<c>{_CARD}) from {_WHOSE} (?P<row>front|middle|back) to (?P<to>front|middle|back)",
     "{a} 把 {c} 從{whose}的{row}移到{to}", "{a} 把 {c} 从{whose}的{row}移到{to}"),
    (rf"(?P<a>.+?) swapped (?P<c>{_CARD}) and (?P<d>{_CARD}) in {_WHOSE} hand",
     "{a} 對調了{whose}手上的 {c} 和 {d}", "{a} 对调了{whose}手上的 {c} 和 {d}"),
    (rf"(?P<a>.+?) swapped {_WHOSE} (?P<row>front|middle|back) and (?P<to>front|middle|back) rows",
     "{a} 對調了{whose}的{row}和{to}", "{a} 对调了{whose}的{row}和{to}"),
    (rf"(?P<a>.+?) rearranged {_WHOSE} fouled hand \((?P<n>\S+) card\(s\) moved\)",
     "{a} 把{whose}相公的牌擺好了（移動了 {n} 張）", "{a} 把{whose}相公的牌摆好了（移动了 {n} 张）"),
    (r"(?P<a>.+?) marked (?P<p>.+?) as surrendered", "{a} 標明 {p} 投降", "{a} 标明 {p} 投降"),
    (r"(?P<a>.+?) marked (?P<p>.+?) as playing \(no surrender\)", "{a} 取消了 {p} 的投降", "{a} 取消了 {p} 的投降"),
    (rf"(?P<a>.+?) declared {_WHOSE} natural", "{a} 為{whose}報到", "{a} 为{whose}报到"),
    (rf"(?P<a>.+?) withdrew {_WHOSE} natural", "{a} 取消了{whose}的報到", "{a} 取消了{whose}的报到"),
    (r"(?P<a>.+?) marked (?P<p>.+?) as the one who went out", "{a} 標明 {p} 出完牌", "{a} 标明 {p} 出完牌"),
    (r"(?P<a>.+?) marked (?P<p>.+?) as not out", "{a} 取消了 {p} 出完牌", "{a} 取消了 {p} 出完牌"),
    (rf"(?P<a>.+?) claimed {_WHOSE} instant win", "{a} 為{whose}報即時勝出", "{a} 为{whose}报即时胜出"),
    (rf"(?P<a>.+?) withdrew {_WHOSE} instant win", "{a} 取消了{whose}的即時勝出", "{a} 取消了{whose}的即时胜出"),
    (r"(?P<a>.+?) set the finishing order and 頂大", "{a} 設定了名次和頂大", "{a} 设定了名次和顶大"),
    (r"(?P<a>.+?) settled the round \(settlement (?P<n>\d+)\)", "{a} 結算了這一局（第 {n} 次結算）",
     "{a} 结算了这一局（第 {n} 次结算）"),
    (r"(?P<a>.+?) settled the round", "{a} 結算了這一局", "{a} 结算了这一局"),
    (r"(?P<a>.+?) re-opened the round", "{a} 重開了這一局", "{a} 重开了这一局"),
    (r"(?P<a>.+?) undid a change", "{a} 復原了一項更改", "{a} 复原了一项更改"),
]
_CHANGE_PATTERNS = [(re.compile(pattern), hant, hans) for pattern, hant, hans in _CHANGE_FORMS]
_UNDID = re.compile(r"(?P<a>.+?) undid: (?P<rest>.+)")


def _actor(name: str) -> str:
    """The actor of a change; the server's "Someone" (no name chosen on that phone) in the reader's language."""
    return translate("someone") if name == "Someone" else name


def change_text(text: str) -> str:
    """A change line ("Bob moved 7♠ from Ann's middle to back") in the reader's language; a line of a form this
    table does not know stays in English."""
    lang = current_language()
    if lang == "en":
        return text
    simplified = lang == "zh-Hans"
    undid = _UNDID.fullmatch(text)
    if undid:
        return f"{_actor(undid['a'])} {'复原了' if simplified else '復原了'}：{change_text(undid['rest'])}"
    for pattern, hant, hans in _CHANGE_PATTERNS:
        found = pattern.fullmatch(text)
        if found:
            values = found.groupdict()
            values["a"] = _actor(values["a"])
            whose = values.get("whose")
            if whose is not None:
                values["whose"] = "自己" if whose == "their" else f" {whose[:-2]} "
            for key in ("row", "to"):
                if values.get(key):
                    values[key] = translate(values[key]) if values[key] != "cards" else translate("cards_left")
            return (hans if simplified else hant).format(**values).replace("  ", " ")
    return text


# Preset names as players at the table know them.
PRESET_NAMES: dict[str, tuple[str, str, str]] = {
    "hk": ("Hong Kong (banker)", "香港玩法（坐莊）", "香港玩法（坐庄）"),
    "taiwan-banker": ("Taiwanese banker", "台式坐莊", "台式坐庄"),
    "points": ("Points (特殊加分)", "計分玩法", "计分玩法"),
    "taiwan": ("Taiwanese", "台灣玩法", "台湾玩法"),
    "fujian": ("Fujian 十三水", "福建十三水", "福建十三水"),
    "2-4": ("2-4 method", "2-4 計分", "2-4 计分"),
    "1-6": ("1-6 method", "1-6 計分", "1-6 计分"),
    "bigtwo-hk": ("Big Two, Hong Kong count (炒)", "鋤大弟 香港計分（炒）", "锄大弟 香港计分（炒）"),
    "bigtwo-tw": ("Big Two, Taiwanese fines per card", "大老二 台灣罰錢", "大老二 台湾罚钱"),
    "bigtwo-points": ("Big Two, card points (扣分制)", "大老二 扣分制", "大老二 扣分制"),
    "bigtwo-plus": ("Big Two, plus-minus points (加扣分制)", "大老二 加扣分制", "大老二 加扣分制"),
    "bigtwo-rank": ("Big Two, points by finishing order (名次計分)", "大老二 名次計分", "大老二 名次计分"),
}

# Traditional <-> Simplified for the characters that occur in hand and bonus names.
_T2S = dict(zip(
    "對條順葫蘆鐵烏龍兩張壘殺槍報雜點頭後過靑龍隻鬥筒無贏輸寶勝張莊數與萬個樣這裡說紅現實門開關邊戲擺衝長離將齊從發傳禮頂連隊",
    "对条顺葫芦铁乌龙两张垒杀枪报杂点头后过青龙只斗筒无赢输宝胜张庄数与万个样这里说红现实门开关边戏摆冲长离将齐从发传礼顶连队",
))
_S2T = {s: t for t, s in _T2S.items()}


def to_simplified(text: str) -> str:
    return "".join(_T2S.get(ch, ch) for ch in text)


def to_traditional(text: str) -> str:
    return "".join(_S2T.get(ch, ch) for ch in text)


def current_language() -> str:
    lang = session.get("lang") or ""
    if lang in LANGUAGES:
        return lang
    best = request.accept_languages.best_match(["en", "zh-TW", "zh-HK", "zh-CN", "zh"]) or "en"
    return {"zh-TW": "zh-Hant", "zh-HK": "zh-Hant", "zh-CN": "zh-Hans", "zh": "zh-Hant"}.get(best, "en")


def _index(lang: str) -> int:
    return {"en": 0, "zh-Hant": 1, "zh-Hans": 2}.get(lang, 0)


def translate(key: str, **values: object) -> str:
    entry = _LABELS.get(key)
    text = entry[_index(current_language())] if entry else key
    return text.format(**values) if values else text


def warning_text(note: dict) -> str:
    """A review warning in the reader's language (a reader warning the review does not restate stays in English)."""
    lang = current_language()
    entry = _WARNINGS.get(str(note.get("key")))
    if lang == "en" or entry is None:
        return str(note.get("text", ""))
    params = dict(note.get("params") or {})
    if "row" in params:
        params["row"] = translate(str(params["row"]))
    return entry[0 if lang == "zh-Hant" else 1].format(**params)


def preset_label(name: str) -> str:
    entry = PRESET_NAMES.get(name)
    return entry[_index(current_language())] if entry else name


def chinese(text: str) -> str:
    """A Chinese name from `scoring` in the script the reader chose (both scripts when English)."""
    return to_simplified(text) if current_language() == "zh-Hans" else to_traditional(text)


def init_app(app: Flask) -> None:
    from webapp.rules import option_text

    app.jinja_env.globals.update(
        option_text=option_text, warning_text=warning_text, change_text=change_text, _=translate, preset_label=preset_label, zh=chinese, LANGUAGES=LANGUAGES, current_language=current_language
    )
