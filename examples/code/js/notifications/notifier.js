const { sendEmail } = require('./email-sender');

function notifyCustomer(customer, order) {
  return sendEmail(customer.email, 'order-confirmation', { order });
}

module.exports = { notifyCustomer };
