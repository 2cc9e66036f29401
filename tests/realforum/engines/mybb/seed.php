<?php
// MyBB 1.8: seed the game script through MyBB's own datahandlers (as admincp and the forms do).
//   php seed.php DOCROOT PLAN.json OUT.json
// PLAN: GameScript.seed_plan() with BBCode bodies. The installer made the GM (uid 1), category
// fid 1 and forum fid 2. MyBB has no conversations: every message of a [[pm]] is its own PM
// (a later one titled "Re: ..."), a copy kept in the sender's sent folder.
$root = rtrim($argv[1], '/'); chdir($root);
define('IN_MYBB', 1); define('THIS_SCRIPT', 'seed.php');
$_SERVER['REQUEST_URI'] = '/seed.php'; $_SERVER['REMOTE_ADDR'] = '127.0.0.1'; $_SERVER['HTTP_HOST'] = '127.0.0.1';
require_once $root.'/global.php';
require_once MYBB_ROOT.'inc/datahandlers/user.php';
require_once MYBB_ROOT.'inc/datahandlers/post.php';
require_once MYBB_ROOT.'inc/datahandlers/pm.php';
require_once MYBB_ROOT.'inc/functions_rebuild.php';
$plan = json_decode(file_get_contents($argv[2]), true);
function fail($what) { fwrite(STDERR, print_r($what, true)."\n"); exit(1); }
function ts($iso) { return (new DateTime($iso))->getTimestamp(); }

// the harness's limits off (flood checks, merging of consecutive posts), pages of per_page, UTC
$set = ['postsperpage' => $plan['per_page'], 'threadsperpage' => 20, 'postfloodcheck' => 0, 'postfloodsecs' => 0,
        'postmergemins' => 0, 'pmfloodsecs' => 0, 'captchaimage' => 0, 'regtype' => 'instant', 'securityquestion' => 0,
        'hiddencaptchaimage' => 0, 'timezoneoffset' => 0, 'dstcorrection' => 0, 'showeditedbyadmin' => 1];
foreach ($set as $k => $v) {
    $db->update_query('settings', ['value' => $db->escape_string($v)], "name='".$db->escape_string($k)."'");
    $mybb->settings[$k] = $v;
}
rebuild_settings();
$db->update_query('forums', ['name' => $db->escape_string($plan['category'])], 'fid=1');
$db->update_query('forums', ['name' => $db->escape_string($plan['forum']),
                             'description' => $db->escape_string($plan['forum_description'])], 'fid=2');
$cache->update_forums();
$fid = 2;
$joined = ts($plan['joined']);
$db->update_query('users', ['regdate' => $joined, 'timezone' => 0], 'uid=1');

$users = [$plan['gm'] => 1];
foreach ($plan['accounts'] as $name) {
    if (isset($users[$name])) continue;
    $email = strtolower($name).'@valfonda.example';
    $uh = new UserDataHandler('insert');
    $uh->set_data(['username' => $name, 'password' => $plan['password'], 'password2' => $plan['password'],
        'email' => $email, 'email2' => $email, 'usergroup' => 2, 'regip' => '127.0.0.1', 'regdate' => $joined,
        'timezone' => 0, 'dst' => 0, 'language' => '', 'profile_fields' => [], 'options' => []]);
    if (!$uh->validate_user()) fail($uh->get_friendly_errors());
    $u = $uh->insert_user(); $users[$name] = (int)$u['uid'];
}

function make_post($mode, $fid, $tid, $uid, $subject, $message, $dateline) {
    $u = get_user($uid);
    $ph = new PostDataHandler('insert'); $ph->action = $mode; $ph->admin_override = true;
    $ph->set_data(['fid' => $fid, 'tid' => $tid, 'replyto' => 0, 'subject' => $subject, 'prefix' => 0, 'icon' => 0,
        'uid' => $uid, 'username' => $u['username'], 'message' => $message, 'ipaddress' => '127.0.0.1',
        'posthash' => md5($message.$uid.microtime()), 'dateline' => $dateline, 'savedraft' => 0,
        'options' => ['signature' => 0, 'subscriptionmethod' => '', 'disablesmilies' => 0]]);
    $ok = $mode == 'thread' ? $ph->validate_thread() : $ph->validate_post();
    if (!$ok) fail($ph->get_friendly_errors());
    $r = $mode == 'thread' ? $ph->insert_thread() : $ph->insert_post();
    return [(int)$r['pid'], (int)($r['tid'] ?? $tid)];
}

$threads = [];
foreach ($plan['threads'] as $t) {
    $by_key = []; foreach ($t['posts'] as $p) $by_key[$p['key']] = $p;
    $tid = 0; $posts = []; $stored = [];
    foreach ($t['posts'] as $p) {
        $quote = '';
        if (!empty($p['quote'])) {  // what MyBB's quote button puts in the reply box
            $q = $by_key[$p['quote']];
            $qpid = $posts[$q['key']]['id'];
            $quote = '[quote="'.$q['author'].'" pid=\''.$qpid.'\' dateline=\''.ts($q['at']).'\']'
                .($q['edited_body'] ?? $q['body'])."[/quote]\n";
        }
        $first = $quote.$p['body'];
        [$pid, $tid] = make_post($tid ? 'post' : 'thread', $fid, $tid, $users[$p['author']],
                                 $tid ? '' : $t['title'], $first, ts($p['at']));
        $content = $first;
        if (!empty($p['edited_at'])) {  // what editpost.php stores
            $content = $quote.$p['edited_body'];
            $db->update_query('posts', ['message' => $db->escape_string($content), 'edituid' => $users[$p['author']],
                'edittime' => ts($p['edited_at'])], "pid=$pid");
        }
        $posts[$p['key']] = ['id' => $pid, 'content' => $content];
    }
    rebuild_thread_counters($tid);
    $threads[$t['key']] = ['id' => $tid, 'title' => $t['title'], 'path' => "showthread.php?tid=$tid",
                           'first_post_id' => reset($posts)['id'], 'posts' => $posts];
}
rebuild_forum_counters($fid);

function seed_pm($fromid, $toname, $subject, $message, $dateline) {
    global $db;
    $pmh = new PMDataHandler(); $pmh->admin_override = true;
    $pmh->set_data(['subject' => $subject, 'message' => $message, 'icon' => 0, 'fromid' => $fromid, 'do' => '',
        'pmid' => '', 'to' => [$toname], 'ipaddress' => '127.0.0.1',
        'options' => ['signature' => 0, 'disablesmilies' => 0, 'savecopy' => 1, 'readreceipt' => 0]]);
    if (!$pmh->validate_pm()) fail($pmh->get_friendly_errors());
    $r = $pmh->insert_pm();
    $to = (int)$r['pmids'][0];
    $copy = (int)$db->fetch_field($db->simple_select('privatemessages', 'MAX(pmid) AS m', "uid=$fromid AND folder=2"), 'm');
    $db->update_query('privatemessages', ['dateline' => $dateline], "pmid IN ($to, $copy)");
    return [$to, $copy];
}

$pms = [];
foreach ($plan['pms'] as $c) {
    $ids = []; $msg_ids = [$c['from'] => [], $c['to'] => []];
    foreach ($c['messages'] as $i => $m) {
        $other = $m['author'] == $c['from'] ? $c['to'] : $c['from'];
        [$received, $copy] = seed_pm($users[$m['author']], $other, ($i ? 'Re: ' : '').$c['subject'], $m['body'],
                                     ts($m['at']));
        $msg_ids[$other][] = $received; $msg_ids[$m['author']][] = $copy;
        if ($i == 0) $ids = [$c['from'] => $copy, $c['to'] => $received];
    }
    $pms[$c['key']] = ['ids' => $ids, 'message_ids' => $msg_ids];
}
require_once MYBB_ROOT.'inc/functions_user.php';
foreach ($users as $uid) update_pm_count($uid);
$cache->update_stats();

file_put_contents($argv[3], json_encode(['users' => $users, 'logins' => (object)[], 'category_id' => 1, 'forum_id' => $fid,
    'threads' => $threads, 'pms' => $pms], JSON_PRETTY_PRINT | JSON_UNESCAPED_UNICODE));
