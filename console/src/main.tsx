import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { call, forgetToken, PUBLIC, saveToken, setApiLanguage, token } from './api';
import { language, setLanguage, t } from './i18n';
import { route, useRoute } from './router';
import { ChatView } from './views/chat';
import { InstanceView } from './views/instance';
import { NetworkView } from './views/network';
import { NetworksView } from './views/networks';
import { OperatorView } from './views/operator';
import { ToolsView } from './views/tools';
import './styles.css';

interface Account {
  account_id: string;
  account_type: string;
}

function Login({ onLogin }: { onLogin: (account: Account) => void }) {
  const [value, setValue] = useState('');
  const [error, setError] = useState('');
  const submit = async (event: Event) => {
    event.preventDefault();
    saveToken(value.trim());
    try {
      onLogin(await call<Account>(`${PUBLIC}/auth/whoami`));
    } catch (failure) {
      forgetToken();
      setError(String((failure as Error).message));
    }
  };
  return (
    <form class="login card" onSubmit={submit}>
      <h2>{t('login')}</h2>
      <p class="muted">{t('loginHint')}</p>
      <input
        id="token"
        type="password"
        autocomplete="off"
        placeholder={t('token')}
        value={value}
        onInput={(event) => setValue((event.target as HTMLInputElement).value)}
      />
      <button type="submit">{t('login')}</button>
      {error && <p class="error">{error}</p>}
    </form>
  );
}

function Page({ path }: { path: string[] }) {
  const [first, knId, kind, otId, identity] = path;
  if (first === 'kn' && knId && kind === 'ot' && otId && identity) {
    return <InstanceView knId={knId} otId={otId} identity={identity} />;
  }
  if (first === 'kn' && knId) return <NetworkView knId={knId} />;
  if (first === 'tools') return <ToolsView />;
  if (first === 'chat') return <ChatView />;
  if (first === 'operator') return <OperatorView />;
  return <NetworksView />;
}

function App() {
  const [account, setAccount] = useState<Account | undefined>();
  const [checked, setChecked] = useState(token() === null);
  const [, setLanguageState] = useState(language());
  const path = useRoute();
  // An empty saved token is a sign-in without one (AUTH_MODE=none, loopback only); no token yet: the form.
  useEffect(() => {
    if (token() === null) return;
    call<Account>(`${PUBLIC}/auth/whoami`)
      .then(setAccount, () => forgetToken())
      .finally(() => setChecked(true));
  }, []);
  const toggle = () => {
    const next = language() === 'en-US' ? 'zh-Hans' : 'en-US';
    setLanguage(next);
    setApiLanguage(next);
    setLanguageState(next);
  };
  const logout = () => {
    forgetToken();
    setAccount(undefined);
    route('');
  };
  return (
    <div class="shell" key={language()}>
      <header>
        <h1>
          <a href="#/">{t('title')}</a>
        </h1>
        {account && (
          <nav>
            <a href="#/">{t('networks')}</a>
            <a href="#/tools">{t('tools')}</a>
            <a href="#/chat">{t('chat')}</a>
            <a href="#/operator">{t('operator')}</a>
          </nav>
        )}
        <span class="spacer" />
        {account && (
          <span class="muted" id="account">
            {t('signedInAs')} {account.account_id} ({account.account_type})
          </span>
        )}
        <button type="button" class="link" id="language" onClick={toggle}>
          {t('language')}
        </button>
        {account && (
          <button type="button" class="link" onClick={logout}>
            {t('logout')}
          </button>
        )}
      </header>
      <main>{!checked ? <p>{t('loading')}</p> : account ? <Page path={path} /> : <Login onLogin={setAccount} />}</main>
    </div>
  );
}

setApiLanguage(language());
document.documentElement.lang = language();
render(<App />, document.getElementById('app')!);
