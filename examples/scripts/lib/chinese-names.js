// Chinese personal names for synthetic people; drawn from common surnames and given-name characters.
const SURNAMES = '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤'.split('');
const MALE_CHARS = '伟强磊军洋勇杰涛明超辉刚建华平鹏斌宇浩凯健俊帆志峰亮成波宁东文博晨阳昊然嘉豪子轩浩宇'.split('');
const FEMALE_CHARS = '芳娜敏静丽艳娟霞秀玲婷雪慧颖琳晶燕红梅莉倩蕾欣怡雨萱思涵梓彤佳琪诗雅可馨'.split('');

/** A name not yet in `used` (two or three characters); records it in `used`. */
function uniqueChineseName(random, gender, used) {
  const chars = gender === '女' ? FEMALE_CHARS : MALE_CHARS;
  for (;;) {
    const given = random.chance(0.7) ? random.pick(chars) + random.pick(chars) : random.pick(chars);
    const name = random.pick(SURNAMES) + given;
    if (!used.has(name)) {
      used.add(name);
      return name;
    }
  }
}

module.exports = { uniqueChineseName };
