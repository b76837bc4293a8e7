/**
 * Word lists for the generator, modelled on what a 线报 site actually carries: platform
 * coupons, bank 立减金, phone top-ups, takeaway red packets, 0-yuan trials, price drops.
 */

export const MALLS = [
  "京东",
  "淘宝",
  "天猫",
  "拼多多",
  "美团",
  "饿了么",
  "抖音",
  "快手",
  "唯品会",
  "苏宁易购",
  "支付宝",
  "微信",
  "云闪付",
  "盒马",
  "山姆",
] as const;

export const BANKS = [
  "农业银行",
  "建设银行",
  "工商银行",
  "中国银行",
  "招商银行",
  "交通银行",
  "邮储银行",
  "浦发银行",
  "中信银行",
  "光大银行",
  "民生银行",
  "兴业银行",
] as const;

export const BANK_CHANNELS = ["掌银", "手机银行", "信用卡", "微信公众号", "小程序", "APP"] as const;

export const CARRIERS = ["移动", "联通", "电信"] as const;

export const PERKS = [
  "红包",
  "无门槛券",
  "满减券",
  "立减金",
  "话费券",
  "京豆",
  "淘金币",
  "视频会员",
  "外卖券",
  "打车券",
  "积分",
  "现金",
] as const;

export const ACTIONS = [
  "领",
  "抽",
  "签到领",
  "免费领",
  "0元购",
  "秒杀",
  "限时抢",
  "新人领",
  "老用户领",
] as const;

export const SUFFIXES = [
  "亲测到账",
  "速度",
  "可叠加",
  "限量",
  "人人可领",
  "秒到",
  "部分用户",
  "需要开通会员",
  "每天可参与",
  "手慢无",
  "",
] as const;

export const PRODUCTS = [
  ["小米", "Redmi K80 12+256G", "手机"],
  ["苹果", "AirPods Pro 2", "耳机"],
  ["华为", "FreeBuds 6i", "耳机"],
  ["苏泊尔", "电饭煲 4L 球釜内胆", "厨房电器"],
  ["美的", "电热水壶 1.7L", "厨房电器"],
  ["九阳", "豆浆机 免滤", "厨房电器"],
  ["蓝月亮", "洗衣液 3kg*2瓶", "日用百货"],
  ["维达", "抽纸 3层100抽*24包", "日用百货"],
  ["三只松鼠", "每日坚果 750g", "食品饮料"],
  ["农夫山泉", "饮用天然水 550ml*24瓶", "食品饮料"],
  ["安踏", "运动跑鞋 男款", "运动户外"],
  ["李宁", "速干T恤", "运动户外"],
  ["优衣库", "摇粒绒外套", "服饰鞋包"],
  ["南极人", "纯棉四件套", "家居家纺"],
  ["倍思", "65W 氮化镓充电器", "数码配件"],
  ["绿联", "Type-C 数据线 2米", "数码配件"],
  ["罗技", "无线鼠标 M330", "电脑外设"],
  ["飞利浦", "电动牙刷 HX2431", "个护健康"],
  ["欧莱雅", "男士洗面奶 100ml", "个护健康"],
  ["伊利", "安慕希 酸奶 205g*12", "食品饮料"],
] as const;

export const FORUM_TOPICS = [
  "{mall} {action}{n}元{perk} {suffix}",
  "{bank} {channel} {n}元{perk} {suffix}",
  "{carrier} 话费充值 满{m}减{n} {suffix}",
  "{mall} 会员日 {action}{perk} {suffix}",
  "{bank} 每周{weekday} {n}元微信立减金 {suffix}",
  "{mall} 新一期 {perk} {n}元 {suffix}",
  "云闪付 {bank} 满{m}减{n} {suffix}",
  "{mall} 百亿补贴 {product} {suffix}",
  "{mall} 0.01元 {perk} {suffix}",
  "求助 {mall} {perk} 怎么领",
  "{mall} 支付券 {n}元 {suffix}",
] as const;

export const PRICED_TOPICS = [
  "{mall} {brand} {product} 到手{price}元",
  "{mall} 百亿补贴 {brand} {product} {price}元包邮",
  "{brand} {product} {mall}自营 {price}元 历史低价",
  "{mall} 秒杀 {brand} {product} 券后{price}元",
  "{bank} 立减金 {n}元 支付{price}元参与",
] as const;

export const CONTENT_LINES = [
  "打开{mall}APP首页搜索“{perk}”，按提示领取即可。",
  "{bank}{channel}首页搜索“{weekday}”，抽{n}元{perk}，亲测到账。",
  "活动时间有限，{suffix}，先到先得。",
  "领取后在{mall}下单可直接抵扣，叠加店铺券更便宜。",
  "需要实名认证，每个账号限参与一次。",
  "评论区有人已到账，非必中，随缘参与。",
  "{carrier}用户可参与，充值后24小时内到账。",
  "入口：{mall}-我的-领券中心，{n}元{perk}。",
  "领券后下单，叠加平台券后到手价更低。",
] as const;

export const WEEKDAYS = ["一", "二", "三", "四", "五", "六", "日"] as const;

export const NICKNAMES = [
  "羊毛小分队",
  "线报君",
  "数码线报",
  "薅羊毛的猫",
  "省钱达人",
  "白菜价",
  "老王爱分享",
  "撸货小能手",
  "值友1024",
  "一只小羊",
  "小刀",
  "搬砖党",
  "撸毛侠",
  "打折控",
] as const;

export const ACTIVITY_CATES = [
  ["waimai", "外卖红包"],
  ["chuxing", "打车出行"],
  ["chongzhi", "话费充值"],
  ["dianying", "电影演出"],
  ["jiudian", "酒店旅行"],
  ["chaoshi", "超市便利"],
  ["yinhang", "银行优惠"],
  ["kafei", "咖啡茶饮"],
] as const;

export const ACTIVITY_TEMPLATES: Record<string, { names: string[]; hosts: string[] }> = {
  waimai: {
    names: ["美团外卖 天天神券 最高减{n}元", "饿了么 超级吃货卡 {n}元红包", "美团 拼好饭 {n}元起"],
    hosts: ["click.meituan.com", "h5.ele.me"],
  },
  chuxing: {
    names: ["滴滴出行 周末打车{d}折", "高德打车 新客立减{n}元", "哈啰 单车月卡 {n}元"],
    hosts: ["v.didi.cn", "m.amap.com", "m.hellobike.com"],
  },
  chongzhi: {
    names: ["话费充值 满{m}减{n}", "流量包 {n}元10G", "电费缴纳 立减{n}元"],
    hosts: ["h5.m.jd.com", "render.alipay.com"],
  },
  dianying: {
    names: ["猫眼 电影票 {n}元起", "淘票票 周三半价", "演出门票 立减{n}元"],
    hosts: ["m.maoyan.com", "h5.taopiaopiao.com"],
  },
  jiudian: {
    names: ["携程 酒店 满{m}减{n}", "飞猪 机票 立减{n}元", "同程 火车票 {n}元券"],
    hosts: ["m.ctrip.com", "h5.m.taobao.com", "m.ly.com"],
  },
  chaoshi: {
    names: ["盒马 新人 {n}元券", "美团买菜 满{m}减{n}", "罗森 便利店 {d}折"],
    hosts: ["h5.hemaos.com", "mall.meituan.com"],
  },
  yinhang: {
    names: ["招商银行 饭票 {n}元", "建设银行 龙支付 满{m}减{n}", "云闪付 {n}元红包"],
    hosts: ["mbank.cmbchina.com", "h5.ccb.com", "wallet.95516.com"],
  },
  kafei: {
    names: ["瑞幸咖啡 {n}.9元一杯", "库迪 {n}.9元 全场", "喜茶 买一送一"],
    hosts: ["m.luckincoffee.com", "h5.cotticoffee.com", "h5.heytea.com"],
  },
};

export const ACTIVITY_DESCS = [
  "每天10点、17点可领券包，部分商家可膨胀。",
  "限新用户，每个手机号限领一次。",
  "老用户也可参与，领取后7天内有效。",
  "周末可用，叠加会员券更划算。",
  "先领券再下单，支付时自动抵扣。",
] as const;
