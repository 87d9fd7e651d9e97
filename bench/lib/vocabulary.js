// Mixed Chinese/English vocabulary for the synthetic benchmark network and the benchmark queries.

const CATEGORIES = ['电子产品 Electronics', '家居 Home', '服装 Apparel', '食品 Grocery', '图书 Books', '美妆 Beauty', '运动 Sports', '母婴 Baby', '汽车用品 Automotive', '办公 Office'];
const PRODUCT_WORDS = [
  '蓝牙耳机', 'wireless earbuds', '降噪', 'noise cancelling', '机械键盘', 'mechanical keyboard', '显示器', 'monitor', '充电宝', 'power bank',
  '咖啡机', 'espresso machine', '空气净化器', 'air purifier', '扫地机器人', 'robot vacuum', '羽绒服', 'down jacket', '跑步鞋', 'running shoes',
  '保温杯', 'thermos', '婴儿推车', 'stroller', '瑜伽垫', 'yoga mat', '电动牙刷', 'electric toothbrush', '面霜', 'face cream',
  '绿茶', 'green tea', '坚果礼盒', 'nut gift box', '儿童绘本', 'picture book', '行车记录仪', 'dash cam', '办公椅', 'office chair',
  '智能手表', 'smartwatch', '投影仪', 'projector', '电饭煲', 'rice cooker', '床垫', 'mattress', '登山包', 'hiking backpack',
];
const ADJECTIVES = ['轻薄', 'lightweight', '防水', 'waterproof', '静音', 'silent', '便携', 'portable', '高端', 'premium', '环保', 'eco-friendly', '大容量', 'large capacity', '快充', 'fast charging', '智能', 'smart', '经典', 'classic'];
const TEXT_WORDS = [
  '质量', 'quality', '物流', 'shipping', '退款', 'refund', '售后', 'after-sales', '发票', 'invoice', '延迟', 'delayed', '破损', 'damaged',
  '好评', 'positive review', '客服', 'customer service', '保修', 'warranty', '更换', 'replacement', '缺货', 'out of stock', '促销', 'promotion',
  '会员', 'membership', '积分', 'loyalty points', '优惠券', 'coupon', '包装', 'packaging', '尺码', 'size', '颜色', 'color', '电池', 'battery',
  '续航', 'battery life', '安装', 'installation', '说明书', 'manual', '配送', 'delivery', '签收', 'signed for', '投诉', 'complaint', '满意', 'satisfied',
];
const CITIES = ['北京 Beijing', '上海 Shanghai', '广州 Guangzhou', '深圳 Shenzhen', '杭州 Hangzhou', '成都 Chengdu', '武汉 Wuhan', 'Singapore', 'London', 'Berlin', 'San Francisco', 'Tokyo'];
const COUNTRIES = ['中国 China', 'Germany', 'Japan', 'Vietnam', 'United States', '韩国 Korea', 'Italy', 'Mexico'];
const SEGMENTS = ['consumer', 'small business', 'enterprise', 'VIP 会员'];
const FIRST_NAMES = ['伟', '芳', '娜', '敏', '静', '磊', '洋', '艳', 'Alice', 'Bob', 'Chen', 'David', 'Emma', 'Li', 'Mia', 'Noah', 'Olivia', 'Wang'];
const LAST_NAMES = ['王', '李', '张', '刘', '陈', 'Smith', 'Johnson', 'Garcia', 'Müller', 'Tanaka', 'Nguyen', 'Zhang'];
const ORDER_STATUSES = ['paid', 'shipped', 'delivered', 'refunded', 'cancelled'];
const TICKET_PRIORITIES = ['P1', 'P2', 'P3', 'P4'];
const TICKET_STATUSES = ['open', 'pending', 'resolved', 'closed'];

/** Queries the benchmark rotates through: single words, bilingual pairs, and phrases. */
const BENCH_QUERIES = [
  '蓝牙耳机 降噪', 'wireless earbuds noise cancelling', '退款 refund delayed', '物流 延迟 投诉', 'robot vacuum battery life',
  '空气净化器', 'mechanical keyboard warranty', '客服 售后 更换', 'down jacket waterproof', '咖啡机 espresso machine',
  '订单 order refund', '工单 ticket P1', 'supplier rating Germany', '婴儿推车 stroller 安全', 'smartwatch fast charging',
  '产品 Product 电子产品', 'customer VIP 会员 上海', '发票 invoice', 'damaged packaging replacement', '办公椅 office chair',
];

module.exports = {
  CATEGORIES, PRODUCT_WORDS, ADJECTIVES, TEXT_WORDS, CITIES, COUNTRIES, SEGMENTS, FIRST_NAMES, LAST_NAMES,
  ORDER_STATUSES, TICKET_PRIORITIES, TICKET_STATUSES, BENCH_QUERIES,
};
