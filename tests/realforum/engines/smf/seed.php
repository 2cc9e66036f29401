<?php
// SMF 2.1: seed the game script through SMF's own functions (registerMember, createPost, sendpm).
//   php seed.php DOCROOT PLAN.json OUT.json
// PLAN: GameScript.seed_plan() with BBCode bodies. The installer made the GM (member 1), category
// 1 and board 1 with a welcome topic. A [[pm]] is one PM conversation (each later message has the
// first as its pm_head, as the reply button does); every member reads PMs "all at once" (SMF's
// default), so the GM's own answers are in his sent folder.
$root = rtrim($argv[1], '/'); chdir($root);
$_SERVER['REMOTE_ADDR'] = '127.0.0.1'; $_SERVER['HTTP_HOST'] = '127.0.0.1'; $_SERVER['REQUEST_URI'] = '/seed.php';
require_once($root . '/SSI.php');
require_once($sourcedir . '/Subs-Post.php'); require_once($sourcedir . '/Subs-Members.php');
global $smcFunc, $modSettings, $user_info, $board_info;
$plan = json_decode(file_get_contents($argv[2]), true);
function ts($iso) { return (new DateTime($iso))->getTimestamp(); }
function q($sql, $args = []) { global $smcFunc; return $smcFunc['db_query']('', $sql, $args); }
function one($sql, $args = []) { global $smcFunc; return $smcFunc['db_fetch_assoc'](q($sql, $args)); }
// registerMember(interface=admin) and createPost() check permissions: act as the admin (member 1)
$user_info = array_merge($user_info, ['id' => 1, 'is_guest' => false, 'is_admin' => true, 'username' => $plan['gm'],
    'name' => $plan['gm'], 'groups' => [1], 'permissions' => ['admin_forum', 'moderate_forum']]);
$board_info = ['parent_boards' => []];
// the harness's limits off (flood wait, captchas, PM limits), pages of per_page, UTC
updateSettings(['defaultMaxMessages' => $plan['per_page'], 'defaultMaxTopics' => 20, 'spamWaitTime' => 0,
    'reg_verification' => 0, 'posts_require_captcha' => 0, 'registration_method' => 0,
    'pm_spam_settings' => '10,0,0', 'default_timezone' => 'UTC', 'edit_disable_time' => 0, 'edit_wait_time' => 0]);
q('UPDATE {db_prefix}boards SET name = {string:n}, description = {string:d} WHERE id_board = 1',
  ['n' => $plan['forum'], 'd' => $plan['forum_description']]);
q('UPDATE {db_prefix}categories SET name = {string:n} WHERE id_cat = 1', ['n' => $plan['category']]);
$board = 1;
$joined = ts($plan['joined']);
$ids = [$plan['gm'] => 1];
foreach ($plan['accounts'] as $n) {
    if (isset($ids[$n])) continue;
    $reg = ['interface' => 'admin', 'username' => $n, 'email' => strtolower($n) . '@valfonda.example',
        'password' => $plan['password'], 'password_check' => $plan['password'], 'check_reserved_name' => false,
        'check_password_strength' => false, 'check_email_ban' => false, 'send_welcome_email' => false,
        'require' => 'nothing', 'memberGroup' => 0, 'extra_register_vars' => [], 'theme_vars' => []];
    $id = registerMember($reg, true);
    if (is_array($id)) { fwrite(STDERR, print_r($id, true)); exit(1); }
    $ids[$n] = (int) $id;
}
q('UPDATE {db_prefix}members SET date_registered = {int:t}, timezone = {string:z}', ['t' => $joined, 'z' => 'UTC']);
function member($id) { return one('SELECT member_name, real_name, email_address FROM {db_prefix}members WHERE id_member = {int:id}', ['id' => $id]); }
function stored($body) { global $smcFunc; $body = $smcFunc['htmlspecialchars']($body, ENT_QUOTES); preparsecode($body); return $body; }
// what the database holds, as the member typed it (SMF stores HTML-escaped text with <br> for newlines)
function typed($body) { return un_htmlspecialchars(str_replace('<br>', "\n", $body)); }
function post($tid, $board, $uid, $subject, $body, $time) {
    global $smcFunc; $m = member($uid);
    $msg = ['subject' => $smcFunc['htmlspecialchars']($subject), 'body' => stored($body), 'smileys_enabled' => true,
        'icon' => 'xx', 'approved' => 1, 'poster_time' => $time];
    $topic = ['id' => $tid, 'board' => $board, 'mark_as_read' => false];
    $poster = ['id' => $uid, 'name' => $m['real_name'], 'email' => $m['email_address'], 'ip' => '127.0.0.1', 'update_post_count' => true];
    if (!createPost($msg, $topic, $poster)) { fwrite(STDERR, "createPost failed\n"); exit(1); }
    return [(int) $msg['id'], (int) $topic['id']];
}
$threads = [];
foreach ($plan['threads'] as $t) {
    $by_key = []; foreach ($t['posts'] as $p) $by_key[$p['key']] = $p;
    $tid = 0; $posts = [];
    foreach ($t['posts'] as $p) {
        $quote = '';
        if (!empty($p['quote'])) {  // what SMF's quote button puts in the reply box
            $qp = $by_key[$p['quote']];
            $quote = '[quote author=' . $qp['author'] . ' link=msg=' . $posts[$qp['key']]['id'] . ' date=' . ts($qp['at'])
                . ']' . ($qp['edited_body'] ?? $qp['body']) . "[/quote]\n";
        }
        [$mid, $tid] = post($tid, $board, $ids[$p['author']], $tid ? 'Re: ' . $t['title'] : $t['title'],
                            $quote . $p['body'], ts($p['at']));
        if (!empty($p['edited_at'])) {  // what an edit through action=post2 stores
            q('UPDATE {db_prefix}messages SET body = {string:b}, modified_time = {int:t}, modified_name = {string:n}
               WHERE id_msg = {int:id}', ['b' => stored($quote . $p['edited_body']), 't' => ts($p['edited_at']),
               'n' => $p['author'], 'id' => $mid]);
        }
        $row = one('SELECT body FROM {db_prefix}messages WHERE id_msg = {int:id}', ['id' => $mid]);
        $posts[$p['key']] = ['id' => $mid, 'content' => typed($row['body'])];
    }
    $threads[$t['key']] = ['id' => $tid, 'title' => $t['title'], 'path' => "index.php?topic=$tid.0",
                           'first_post_id' => reset($posts)['id'], 'posts' => $posts];
}
$pms = [];
foreach ($plan['pms'] as $c) {
    $head = 0; $all = [];
    foreach ($c['messages'] as $m) {
        $other = $m['author'] == $c['from'] ? $c['to'] : $c['from'];
        $from = member($ids[$m['author']]);
        $log = sendpm(['to' => [$ids[$other]], 'bcc' => []], ($head ? 'Re: ' : '') . $c['subject'], stored($m['body']),
                      true, ['id' => $ids[$m['author']], 'name' => $from['real_name'], 'username' => $from['member_name']],
                      $head);
        if (!empty($log['failed'])) { fwrite(STDERR, print_r($log, true)); exit(1); }
        $id = (int) one('SELECT MAX(id_pm) AS id FROM {db_prefix}personal_messages')['id'];
        q('UPDATE {db_prefix}personal_messages SET msgtime = {int:t} WHERE id_pm = {int:id}', ['t' => ts($m['at']), 'id' => $id]);
        $head = $head ?: $id; $all[] = $id;
    }
    $pms[$c['key']] = ['ids' => [$c['from'] => $head, $c['to'] => $head],
                       'message_ids' => [$c['from'] => $all, $c['to'] => $all]];
}
clean_cache();
file_put_contents($argv[3], json_encode(['users' => $ids, 'logins' => (object) [], 'category_id' => 1, 'forum_id' => $board,
    'threads' => $threads, 'pms' => $pms], JSON_PRETTY_PRINT | JSON_UNESCAPED_UNICODE));
