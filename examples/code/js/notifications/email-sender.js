const { renderTemplate } = require('./templates');

const outbox = [];

function sendEmail(address, templateName, values) {
  const body = renderTemplate(templateName, values);
  outbox.push({ address, body });
  return outbox.length;
}

module.exports = { sendEmail, outbox };
