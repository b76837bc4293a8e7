"""Deterministic, believable data for the independent deal-alert API implementation.

Everything here is generated from a fixed seed, relative to the server's start time, so that
the rank windows (last hour ... last 15 days) all hold data. Standard library only.
"""

import random
from datetime import datetime, timedelta, timezone

SHANGHAI = timezone(timedelta(hours=8), "Asia/Shanghai")
SEED = 20261125

# x-categories of the spec: id, alias, name, kind, priced
CATEGORIES = [
    ("16", "zuankeba", "赚客吧", "forum", False),
    ("18", "xinzuanba", "新赚吧", "forum", False),
    ("10", "weibo", "微博线报", "microblog", True),
    ("30", "haodan", "好单线报", "good-order", True),
    ("23", "douban", "豆瓣线报", "discussion-group", False),
    ("17", "kuan", "酷安", "forum", False),
    ("11", "xiaodigu", "小嘀咕", "forum", False),
    ("20", "huluxia", "葫芦侠三楼", "forum", False),
    ("3", "xiaodao", "小刀娱乐网", "forum", False),
    ("6", "qqjishu", "QQ技术导航", "forum", False),
    ("7", "yyok", "一亿OK", "forum", False),
    ("8", "huodong", "活动线报", "forum", False),
    ("9", "mianfei", "免费资源", "forum", False),
    ("40", "shangjin", "赏金猎人", "bounty-forum", False),
]
CAT_BY_ID = {c[0]: c for c in CATEGORIES}
CAT_BY_ALIAS = {c[1]: c for c in CATEGORIES}
PRICED_IDS = [c[0] for c in CATEGORIES if c[4]]
# relative weights: the big forums publish most
CAT_WEIGHTS = {"16": 14, "18": 8, "10": 12, "30": 10, "23": 6, "17": 5, "11": 5, "20": 4,
               "3": 3, "6": 3, "7": 3, "8": 6, "9": 4, "40": 4}

SOURCE_SITES = {
    "16": "http://www.zuanke8.com/thread-{n}-1-1.html",
    "18": "https://www.xinzuanba.com/thread-{n}-1-1.html",
    "23": "https://www.douban.com/group/topic/{n}/",
    "17": "https://www.coolapk.com/feed/{n}",
    "11": "https://www.xiaodigu.com/t/{n}",
    "20": "https://bbs.huluxia.com/thread/{n}",
    "40": "https://www.shangjin.example/bounty/{n}",
}

PLATFORMS = ["京东", "淘宝", "天猫", "拼多多", "美团", "饿了么", "支付宝", "微信", "云闪付", "抖音",
             "快手", "携程", "滴滴", "京东金融", "苏宁易购", "唯品会", "得物", "闲鱼"]
BANKS = ["农业银行", "建设银行", "招商银行", "中国银行", "交通银行", "工商银行", "浦发银行",
         "中信银行", "光大银行", "民生银行", "邮储银行", "平安银行"]
CARRIERS = ["中国移动", "中国联通", "中国电信"]
FOOD = ["星巴克", "瑞幸咖啡", "肯德基", "麦当劳", "喜茶", "奈雪的茶", "必胜客", "蜜雪冰城"]
GOODS = [
    ("小米 Redmi K80 12+256G", 1799), ("苏泊尔 电饭煲 4L", 199), ("蓝月亮 洗衣液 3kg", 39.9),
    ("维达 卫生纸 30卷", 45.9), ("蒙牛 纯牛奶 250ml*24盒", 49.9), ("农夫山泉 550ml*24瓶", 29.9),
    ("飞利浦 电动牙刷 HX2421", 129), ("罗技 M330 静音鼠标", 79), ("绿联 65W 氮化镓充电器", 89),
    ("三只松鼠 坚果礼盒 1.5kg", 69.9), ("安踏 跑步鞋", 159), ("优衣库 摇粒绒外套", 99),
    ("AirPods Pro 2", 1399), ("iPhone 16 128G", 4599), ("华为 FreeBuds 5i", 299),
    ("漫步者 蓝牙耳机", 99), ("金龙鱼 大米 10kg", 45.9), ("舒肤佳 沐浴露 1L", 29.9),
    ("海飞丝 洗发水 750ml", 49.9), ("Kindle 青春版", 558), ("格力 电风扇", 169),
    ("美的 空气炸锅 5L", 199), ("百草味 零食大礼包", 39.9), ("良品铺子 猪肉脯", 19.9),
    ("PLUS会员 年卡", 99), ("QQ音乐 绿钻 月卡", 8.8), ("爱奇艺 VIP 年卡", 148),
    ("腾讯视频 VIP 季卡", 58), ("网易云音乐 黑胶 年卡", 88), ("Keep 会员 月卡", 9.9),
]
ITEMS_SMALL = ["洗衣凝珠", "纸巾", "湿巾", "牙膏", "口罩", "矿泉水", "方便面", "咖啡豆", "抽纸",
               "洗手液", "面膜", "袜子", "数据线", "手机壳"]
NICKS = ["羊毛小分队", "线报君", "数码线报", "薅羊毛达人", "白菜君", "省钱小能手", "老司机",
         "夜猫子", "lucky_dog", "Mr.Wang", "一只小羊", "撸毛党", "半夜不睡", "leo2018",
         "快乐肥宅", "阿强", "momo", "小透明", "晴天", "KevinZ"]
WEEKDAYS = ["一", "二", "三", "四", "五", "六", "日"]


def _money(rng, lo, hi, step=1):
    v = rng.randint(int(lo / step), int(hi / step)) * step
    return round(v, 2)


def _title_for(rng, cateid):
    """Returns (title, content, tags, price or None)."""
    plat = rng.choice(PLATFORMS)
    bank = rng.choice(BANKS)
    if cateid == "40":
        n = rng.choice([5, 8, 10, 15, 20, 30, 50])
        thing = rng.choice(["淘宝 88VIP 开通方法", "京东 PLUS 试用入口", "美团 神券膨胀 技巧",
                            "支付宝 消费券 领取入口", "抖音 团购 退款教程", "拼多多 砍一刀 助力",
                            "饿了么 免单 攻略", "微信 立减金 渠道"])
        title = f"【悬赏{n}元】求 {thing}"
        content = f"悬赏{n}元，求 {thing}，亲测有效再采纳，截图为准。回帖请写清步骤。"
        return title, content, ["悬赏", thing.split()[0]], None
    kind = rng.random()
    if cateid in ("10", "30"):
        # priced kinds: mostly goods at a price, some bank/coupon alerts at a token price
        if kind < 0.55:
            name, base = rng.choice(GOODS)
            price = round(base * rng.choice([0.5, 0.6, 0.7, 0.8, 0.85, 0.9]), 1)
            if price >= 100:
                price = float(int(price))
            shop = rng.choice(["京东", "天猫", "拼多多", "淘宝", "苏宁易购", "抖音商城"])
            hook = rng.choice(["百亿补贴", "自营", "秒杀", "旗舰店", "plus专享", "领券"])
            title = f"{shop} {hook} {name} 到手{price:g}元"
            content = (f"{shop}APP搜索 {name.split()[0]}，{hook}频道，叠加店铺券后到手{price:g}元，"
                       f"{rng.choice(['限量', '手慢无', '历史低价', '可叠加红包'])}。")
            return title, content, [shop, name.split()[0]], price
        if kind < 0.8:
            n = rng.choice([5, 8, 10, 15, 20])
            wd = rng.choice(WEEKDAYS)
            title = f"{bank} 掌银 每周{wd} {n}元立减金 亲测到账"
            content = f"{bank}APP首页搜索“周{wd}”，抽{n}元微信立减金，支付0.01元参与。"
            return title, content, [bank, "立减金"], 0.01
        if kind < 0.92:
            carrier = rng.choice(CARRIERS)
            a = rng.choice([50, 100, 200])
            b = round(a * rng.choice([0.9, 0.95, 0.96, 0.97]), 1)
            title = f"{plat} {carrier} 话费充值 {a}元 实付{b:g}元"
            content = f"{plat}充值中心，{carrier}话费{a}元面值，实付{b:g}元，24小时内到账。"
            return title, content, [plat, "话费"], b
        # a priced category alert that states no price
        title = f"{plat} 签到领随机红包 最高{rng.choice([5, 8, 18, 88])}元"
        content = f"{plat}APP-我的-签到，每日可领随机红包，可叠加使用。"
        return title, content, [plat, "红包"], None
    if kind < 0.2:
        n = rng.choice([3, 5, 8, 10, 18, 20])
        title = f"{plat} 领{n}元无门槛红包 可叠加使用"
        content = f"{plat}APP搜索“红包”，领取{n}元无门槛红包，部分用户可领。"
        return title, content, [plat, "红包"], None
    if kind < 0.35:
        n = rng.choice([5, 10, 15, 20])
        wd = rng.choice(WEEKDAYS)
        title = f"{bank} 每周{wd} {n}元立减金 速度"
        content = f"{bank}APP活动专区，周{wd}抽{n}元立减金，亲测中了{n}元。"
        return title, content, [bank, "立减金"], None
    if kind < 0.47:
        f = rng.choice(FOOD)
        title = f"{f} {rng.choice(['5折券', '买一送一', '9.9元套餐', '免费升杯'])} {plat}可领"
        content = f"{plat}搜索{f}，领券后到店或外卖使用，限新老用户。"
        return title, content, [f, plat], None
    if kind < 0.58:
        item = rng.choice(ITEMS_SMALL)
        title = f"{plat} 0.01元购 {item} 包邮 限量"
        content = f"{plat}新人专区，{item}一分钱包邮，每个ID限一次。"
        return title, content, [plat, "新人"], None
    if kind < 0.68:
        carrier = rng.choice(CARRIERS)
        title = f"{carrier} 免费领 {rng.choice([1, 2, 5, 10])}G 流量 亲测秒到"
        content = f"{carrier}APP-权益中心，免费领取通用流量，当月有效。"
        return title, content, [carrier, "流量"], None
    if kind < 0.78:
        vip = rng.choice(["QQ音乐 绿钻", "爱奇艺 VIP", "腾讯视频 VIP", "优酷 VIP", "B站 大会员",
                          "WPS 会员", "百度网盘 SVIP"])
        title = f"免费领 {vip} {rng.choice([3, 7, 30])}天 速度"
        content = f"活动入口在{plat}，登录后领取{vip}，部分账号可领。"
        return title, content, [vip.split()[0], "会员"], None
    if kind < 0.88:
        n = rng.choice([0.3, 0.5, 1, 2, 5, 8.8])
        title = f"{plat} 抽奖 {n:g}元现金红包 秒到支付宝"
        content = f"打开{plat}搜索“抽奖”，每日3次，中奖秒到。"
        return title, content, [plat, "抽奖"], None
    title = f"{rng.choice(['求助', '讨论', '分享'])}：{plat} {rng.choice(['新人券还能领吗', '这个活动是真的吗', '今天的羊毛汇总', '退款到账慢怎么办'])}"
    content = f"如题，{plat}{rng.choice(['昨天还能领', '亲测不行了', '有人成功吗', '大家注意风控'])}。"
    return title, content, [plat, "讨论"], None


def fmt_time(ts):
    d = datetime.fromtimestamp(ts, SHANGHAI)
    return d.strftime("%Y-%m-%d"), d.strftime("%H:%M")


def make_alert(rng, aid, ts, cateid=None):
    if cateid is None:
        ids = list(CAT_WEIGHTS)
        cateid = rng.choices(ids, weights=[CAT_WEIGHTS[i] for i in ids])[0]
    cid, alias, cname, _kind, priced = CAT_BY_ID[cateid]
    title, content, tags, price = _title_for(rng, cateid)
    date, short = fmt_time(ts)
    src = SOURCE_SITES.get(cateid)
    yuanurl = src.format(n=rng.randint(1000000, 9999999)) if src and rng.random() < 0.8 else None
    regtime = None
    if rng.random() < 0.75:
        y = rng.randint(2012, 2025)
        m = rng.randint(1, 12)
        d = rng.randint(1, 28)
        regtime = f"{y:04d}-{m:02d}-{d:02d}"
    a = {
        "id": aid,
        "title": title,
        "content": content,
        "datetime": date,
        "shorttime": short,
        "shijianchuo": int(ts),
        "cateid": cid,
        "catename": cname,
        "comments": int(min(300, rng.expovariate(1 / 14))),
        "louzhu": rng.choice(NICKS),
        "louzhuregtime": regtime,
        "url": f"https://new.xianbao.fun/{alias}/{aid}.html",
        "yuanurl": yuanurl,
        "tags": tags,
    }
    if priced and price is not None:
        a["price"] = float(price)
    return a


def generate_alerts(now, n=460, days=20, seed=SEED):
    rng = random.Random(seed)
    span = days * 86400
    stamps = set()
    for i in range(n):
        r = rng.random()
        if r < 0.06:
            age = rng.uniform(0, 3 * 3600)
        elif r < 0.18:
            age = rng.uniform(0, 24 * 3600)
        else:
            age = rng.uniform(0, span - 60)
        ts = int(now - age)
        while ts in stamps:
            ts -= 1
        stamps.add(ts)
    out = []
    aid = 4180000
    for ts in sorted(stamps):
        aid += rng.randint(1, 37)
        out.append(make_alert(rng, aid, ts))
    out.reverse()  # newest first
    return out


ZDM_MALLS = ["京东", "天猫", "拼多多", "苏宁易购", "淘宝", "抖音商城"]
ZDM_GOODS = [
    ("苏泊尔", "电饭煲 4L 球釜内胆 SF40FC875", "厨房电器", 199),
    ("小米", "米家 扫拖机器人 2", "生活电器", 1299), ("美的", "电热水壶 1.7L", "厨房电器", 59),
    ("安踏", "C37 软底跑鞋", "运动鞋", 169), ("李宁", "赤兔6 跑鞋", "运动鞋", 299),
    ("罗技", "G304 无线游戏鼠标", "电脑外设", 149), ("闪迪", "1TB 移动固态硬盘", "存储设备", 499),
    (None, "东北大米 5kg 新米", "粮油调味", 29.9), ("三只松鼠", "每日坚果 30袋", "休闲零食", 79),
    ("飞利浦", "剃须刀 S1203", "个护电器", 159), ("兰蔻", "小黑瓶 精华 50ml", "美妆护肤", 680),
    ("耐克", "Air Force 1 板鞋", "运动鞋", 599), ("优衣库", "HEATTECH 保暖内衣", "服饰", 79),
    ("Apple", "iPad 10代 64G WLAN", "平板电脑", 2499), ("华为", "MatePad 11.5 8+128G", "平板电脑", 1599),
    (None, "加厚 垃圾袋 150只", "家居日用", 9.9), ("九阳", "豆浆机 D2520", "厨房电器", 269),
    ("倍思", "20000mAh 充电宝", "手机配件", 89), ("海尔", "滚筒洗衣机 10kg", "大家电", 1699),
    ("格力", "1.5匹 变频空调", "大家电", 2399), ("伊利", "安慕希 酸奶 12盒", "乳品", 45.9),
    ("金龙鱼", "花生油 5L", "粮油调味", 79.9), ("百雀羚", "水乳套装", "美妆护肤", 129),
    ("Kindle", "Paperwhite 5 8G", "电子书", 899), ("索尼", "WH-1000XM5 降噪耳机", "影音", 1999),
]


def generate_zdm(now, n=40, seed=SEED + 1):
    rng = random.Random(seed)
    out = []
    zid = 129930000
    stamps = sorted(int(now - rng.uniform(0, 4 * 86400)) for _ in range(n))
    for ts in stamps:
        zid += rng.randint(3, 200)
        brand, name, catn, base = rng.choice(ZDM_GOODS)
        price = round(base * rng.choice([0.7, 0.75, 0.8, 0.85, 0.9, 1.0]), 1)
        if price >= 100:
            price = float(int(price))
        mall = rng.choice(ZDM_MALLS)
        title = f"{brand + ' ' if brand else ''}{name}"
        out.append({
            "id": zid,
            "type": "smzdm",
            "title": title,
            "price": float(price),
            "mall_name": mall,
            "brand": brand,
            "category_name": catn,
            "pic": f"https://img.xianbao.example/zdm/{zid}.jpg",
            "posttime": ts,
            "url": f"https://new.xianbao.fun/zdm/{zid}.html",
            "content": f"{mall}{rng.choice(['自营', '旗舰店', '百亿补贴'])}，领券后{price:g}元，"
                       f"{rng.choice(['历史低价', '近期好价', '可叠加plus券', '值得入手'])}。",
        })
    out.sort(key=lambda z: (z["posttime"], z["id"]), reverse=True)
    return out


ACTIVITY_CATES = [
    ("waimai", "外卖红包"), ("chuxing", "打车出行"), ("dianying", "电影演出"), ("huafei", "话费充值"),
    ("jiudian", "酒店旅行"), ("chaoshi", "超市便利"), ("kafei", "咖啡奶茶"), ("yinhang", "银行活动"),
]
ACTIVITY_TEMPLATES = {
    "waimai": [("美团外卖 天天神券 最高减{n}元", "每天10点、17点可领神券包，部分商家可膨胀。", "https://click.meituan.com/t?t=1&c=2&p={code}"),
               ("饿了么 超级吃货卡 首月{n}元", "开通吃货卡每月领红包，叠加店铺满减。", "https://h5.ele.me/svip/{code}")],
    "chuxing": [("滴滴出行 周末打车{d}折", "周六周日快车{d}折券，每单最高减{n}元。", "https://v.didi.cn/p/{code}"),
                ("高德打车 新用户立减{n}元", "首单立减，限部分城市。", "https://ur.alipay.com/amap/{code}")],
    "dianying": [("猫眼电影 {n}元看大片", "周二会员日，指定影院特价。", "https://m.maoyan.com/act/{code}"),
                 ("淘票票 电影票 立减{n}元", "支付宝搜索淘票票，领取观影券。", "https://h5.taopiaopiao.com/act/{code}")],
    "huafei": [("中国移动 话费充值 满100减{n}", "移动APP充值专区，每月一次。", "https://h5.10086.cn/act/{code}"),
               ("云闪付 话费 满50减{n}", "云闪付APP-充值缴费，每日限量。", "https://youhui.95516.com/act/{code}")],
    "jiudian": [("携程 酒店 满300减{n}", "周末酒店券，国内指定酒店可用。", "https://m.ctrip.com/activities/{code}"),
                ("飞猪 机票 立减{n}元", "学生认证用户额外立减。", "https://market.m.taobao.com/fliggy/{code}")],
    "chaoshi": [("盒马 新人 满{n}元减20", "盒马APP新人专享券，次日达可用。", "https://pages.tmall.com/hema/{code}"),
                ("山姆 会员 单笔满199减{n}", "山姆APP领取，限时三天。", "https://m.samsclub.cn/act/{code}")],
    "kafei": [("瑞幸咖啡 9.9元 周周喝", "每周一领券，全场饮品9.9元，外卖可用。", "https://m.lkcoffee.com/act/{code}"),
              ("星巴克 买一送一 限{n}家门店", "星巴克APP领取，中杯及以上可用。", "https://www.starbucks.com.cn/act/{code}")],
    "yinhang": [("招商银行 掌上生活 饭票{n}元", "每周三抢饭票，美团外卖可用。", "https://mbank.cmbchina.com/act/{code}"),
                ("建设银行 生活缴费 立减{n}元", "建行生活APP缴水电燃气费立减。", "https://life.ccb.com/act/{code}")],
}


def generate_activities(now, n=64, seed=SEED + 2):
    rng = random.Random(seed)
    today = datetime.fromtimestamp(now, SHANGHAI).date()
    out = []
    for i in range(n):
        cate = rng.choice(ACTIVITY_CATES)[0]
        name_t, desc_t, h5_t = rng.choice(ACTIVITY_TEMPLATES[cate])
        nv = rng.choice([3, 5, 8, 10, 15, 20, 25, 30])
        dv = rng.choice([7, 8, 9])
        code = "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789") for _ in range(8))
        start = today - timedelta(days=rng.randint(0, 45))
        end = None if rng.random() < 0.25 else start + timedelta(days=rng.randint(3, 60))
        out.append({
            "id": 5000 + i * 3 + rng.randint(0, 2),
            "name": name_t.format(n=nv, d=dv),
            "desc": desc_t.format(n=nv, d=dv),
            "cate": cate,
            "h5": h5_t.format(code=code),
            "pic": f"https://img.xianbao.example/shenghuo/{5000 + i}.png",
            "start_time": start.isoformat(),
            "end_time": end.isoformat() if end else None,
        })
    out.sort(key=lambda a: (a["start_time"], a["id"]), reverse=True)
    return out
